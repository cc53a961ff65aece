import { LegalDocument, List, MailLink, P, Term, type LegalSection } from './legal-text.tsx';

export interface TermsContentProps {
  contactEmail: string;
}

function buildSections(contactEmail: string): LegalSection[] {
  return [
    {
      id: 'terms-accounts',
      title: 'Accounts',
      body: (
        <>
          <P>
            These Terms and Conditions (the &quot;Terms&quot;) govern your use of the RoomStager
            website and AI virtual-staging service (together, the &quot;Service&quot;), operated
            by RoomStager (&quot;RoomStager&quot;, &quot;we&quot;, &quot;us&quot; or
            &quot;our&quot;). By creating an account or using the Service, you agree to these Terms
            and to our Privacy Policy. If you do not agree, do not use the Service.
          </P>
          <List
            items={[
              'You sign in to RoomStager with your Google account; we do not offer any other way of signing in.',
              'You must be at least 18 years old to create an account or use the Service.',
              'You must provide accurate information and keep it up to date.',
              'You are responsible for keeping your Google account secure and for all activity that takes place under your RoomStager account. Tell us promptly if you believe your account has been used without your permission.',
              'Accounts are personal; you may not sell, transfer or share your account or its credits.',
            ]}
          />
        </>
      ),
    },
    {
      id: 'terms-service-and-credits',
      title: 'Service and Credits',
      body: (
        <>
          <P>
            RoomStager lets you upload a photo of an empty room, choose a staging style, and
            receive an AI-generated image of the same room furnished in that style. The Service is
            paid for with credits:
          </P>
          <List
            items={[
              <>
                <Term>One credit per staged photo.</Term> Each staging of one photo uses one credit.
              </>,
              <>
                <Term>Credit packs.</Term> Credits are bought as one-time packs through PayPal:
                Starter, 10 credits for 19 USD; Professional, 50 credits for 89 USD; Enterprise,
                250 credits for 399 USD. Prices are in US dollars and are shown before you pay.
              </>,
              <>
                <Term>No subscription.</Term> There are no subscriptions, monthly fees or
                commitments. You are charged only when you choose to buy a pack.
              </>,
              <>
                <Term>Credits never expire.</Term> Purchased and free credits stay in your balance
                until you use them.
              </>,
              <>
                <Term>Failed generations cost nothing.</Term> A credit is debited when a staging
                starts. If the generation fails, the credit is refunded to your balance
                automatically. Both transactions appear in your credit history.
              </>,
              <>
                <Term>Free trial.</Term> New accounts receive 3 free trial credits, which can be
                used like purchased credits. Free credits have no cash value.
              </>,
              <>
                <Term>Purchases are final.</Term> All purchases of credits are final and
                non-refundable, except where a refund is required by law or granted at our
                discretion. Credits have no cash value and cannot be exchanged for money.
              </>,
            ]}
          />
          <P>
            Payments are processed by PayPal under its own terms and privacy policy; we do not
            receive or store your card details. We may change pack prices or contents in the
            future; a change will not affect credits you have already bought. We work to keep the
            Service available and fast, but we do not guarantee that it will be uninterrupted or
            that a staging will be completed within a particular time.
          </P>
        </>
      ),
    },
    {
      id: 'terms-user-content',
      title: 'Your Content',
      body: (
        <>
          <P>
            You keep ownership of the photos you upload (&quot;Your Content&quot;) and, as between
            you and RoomStager, of the staged images generated from them. You may use the staged
            images for any lawful purpose, including real estate listings and marketing.
          </P>
          <P>
            You may upload only photos that you own or have the necessary rights and permissions to
            use, and you are responsible for Your Content. Do not upload photos that show people
            without their consent or that contain personal information of others you are not
            allowed to share.
          </P>
          <P>
            You grant RoomStager a limited, non-exclusive, worldwide, royalty-free license to
            store, copy, process and display Your Content, and to send it to our service providers,
            including AI model providers, solely to provide the Service to you. This license ends
            when you delete Your Content or your account, except for copies we must keep to comply
            with the law.
          </P>
        </>
      ),
    },
    {
      id: 'terms-ai-limitations',
      title: 'AI-Generated Results and Their Limitations',
      body: (
        <>
          <P>
            Staged images are generated automatically by artificial intelligence. They are
            illustrations of one possible way to furnish a room, not a representation of the
            property as it is. Results may contain inaccuracies or artifacts, such as furniture
            with unrealistic proportions, or changes to walls, windows, floors, fixtures or views.
            Results may vary, and the same photo may give a different result each time.
          </P>
          <P>
            You are responsible for reviewing every staged image before you use it and for
            complying with the rules that apply to you. Where the rules of a multiple listing
            service (MLS), real estate regulations or other laws require it, you must disclose that
            an image has been virtually staged, for example by labeling it as &quot;virtually
            staged&quot;, and make the original, unaltered photo available. You must not use staged
            images to misrepresent the condition, features or defects of a property.
          </P>
        </>
      ),
    },
    {
      id: 'terms-acceptable-use',
      title: 'Acceptable Use',
      body: (
        <>
          <P>When using the Service, you agree not to:</P>
          <List
            items={[
              'upload content that you do not have the right to use, or that infringes the intellectual property, privacy or other rights of anyone;',
              'upload content that is unlawful, obscene, hateful, harassing or violent, or that depicts minors inappropriately;',
              'use the Service or its results to deceive buyers, tenants or anyone else, or for fraud or any other unlawful purpose;',
              'attempt to gain unauthorized access to the Service, to other accounts, or to our systems and networks;',
              'interfere with or disrupt the Service, for example by overloading it, or by introducing malware;',
              'reverse engineer, scrape, or copy the Service, or use automated means to access it other than through interfaces we provide for that purpose;',
              'resell or sublicense access to the Service without our written permission;',
              'create multiple accounts to obtain additional free trial credits.',
            ]}
          />
        </>
      ),
    },
    {
      id: 'terms-termination',
      title: 'Termination',
      body: (
        <>
          <P>
            You may stop using the Service at any time and may ask us to delete your account by
            writing to <MailLink email={contactEmail} />.
          </P>
          <P>
            We may suspend or terminate your account, with or without notice, if you breach these
            Terms, if your use creates a risk or possible legal exposure for us or others, or if we
            are required to do so by law. If we terminate your account for a breach of these Terms,
            unused credits are forfeited. If we discontinue the Service for reasons unrelated to
            your conduct, we will give you reasonable advance notice so that you can use your
            remaining credits and download your images. Sections of these Terms that by their
            nature should survive termination, including those on content, limitation of liability
            and governing law, will survive.
          </P>
        </>
      ),
    },
    {
      id: 'terms-liability',
      title: 'Limitation of Liability',
      body: (
        <>
          <P>
            THE SERVICE AND ALL STAGED IMAGES ARE PROVIDED &quot;AS IS&quot; AND &quot;AS
            AVAILABLE&quot;, WITHOUT WARRANTIES OF ANY KIND, WHETHER EXPRESS OR IMPLIED, INCLUDING
            WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NON-INFRINGEMENT.
          </P>
          <P>
            TO THE FULLEST EXTENT PERMITTED BY LAW, ROOMSTAGER WILL NOT BE LIABLE FOR ANY
            INDIRECT, INCIDENTAL, SPECIAL, CONSEQUENTIAL OR PUNITIVE DAMAGES, OR FOR ANY LOSS OF
            PROFITS, REVENUE, DATA OR BUSINESS OPPORTUNITIES, ARISING OUT OF OR RELATED TO YOUR USE
            OF THE SERVICE OR OF ANY STAGED IMAGE. OUR TOTAL LIABILITY FOR ANY CLAIM RELATED TO THE
            SERVICE IS LIMITED TO THE AMOUNT YOU PAID US IN THE TWELVE (12) MONTHS BEFORE THE EVENT
            GIVING RISE TO THE CLAIM.
          </P>
          <P>
            Some jurisdictions do not allow the exclusion of certain warranties or the limitation
            of certain damages, so some of the above may not apply to you. You agree to indemnify
            and hold RoomStager harmless from claims arising out of Your Content or your breach of
            these Terms, including your use of staged images without a required disclosure.
          </P>
        </>
      ),
    },
    {
      id: 'terms-governing-law',
      title: 'Governing Law',
      body: (
        <P>
          These Terms are governed by the laws of the United States, without regard to
          conflict-of-law principles. Any dispute arising out of or relating to these Terms or the
          Service will be resolved in the courts of competent jurisdiction in the United States,
          and you and RoomStager consent to their jurisdiction. Nothing in these Terms limits any
          rights you have under consumer protection laws that cannot be waived by contract.
        </P>
      ),
    },
    {
      id: 'terms-changes',
      title: 'Changes to These Terms',
      body: (
        <P>
          We may revise these Terms from time to time. For material changes, we will give you at
          least 30 days&apos; notice by e-mail or by a notice in the Service before the changes
          take effect, and we will update the &quot;Last updated&quot; date at the top of this
          page. By continuing to use the Service after the changes take effect, you accept the
          revised Terms. If you do not agree to them, you must stop using the Service.
        </P>
      ),
    },
    {
      id: 'terms-contact',
      title: 'Contact Us',
      body: (
        <P>
          If you have any questions about these Terms, please contact us at{' '}
          <MailLink email={contactEmail} />.
        </P>
      ),
    },
  ];
}

export function TermsContent({ contactEmail }: TermsContentProps) {
  return <LegalDocument sections={buildSections(contactEmail)} />;
}
