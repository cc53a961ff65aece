import { LegalDocument, List, MailLink, P, Term, type LegalSection } from './legal-text.tsx';

export interface PrivacyPolicyContentProps {
  contactEmail: string;
}

function buildSections(contactEmail: string): LegalSection[] {
  return [
    {
      id: 'privacy-information-we-collect',
      title: 'Information We Collect',
      body: (
        <>
          <P>
            This Privacy Policy explains how RoomStager (&quot;RoomStager&quot;, &quot;we&quot;,
            &quot;us&quot; or &quot;our&quot;) collects, uses, discloses and protects information
            about you when you use our website and our AI virtual-staging service (together, the
            &quot;Service&quot;). We collect the following categories of information:
          </P>
          <List
            items={[
              <>
                <Term>Personal Data.</Term> When you sign in with your Google account, Google shares
                your name and your e-mail address with us. We use this information to create and
                identify your account. We do not receive or store your Google password.
              </>,
              <>
                <Term>Derivative Data.</Term> Our servers automatically record information when you
                use the Service, such as your IP address, browser type and version, operating system
                and device type, the pages you visit, the time and date of your requests, and the
                actions you take (for example, uploading a photo or starting a staging). This data
                is kept in server logs and helps us operate, secure and improve the Service.
              </>,
              <>
                <Term>Financial Data.</Term> Credit purchases are processed by PayPal. Your card
                number, bank details and PayPal credentials are entered on PayPal&apos;s systems and
                are never sent to or stored by RoomStager. We keep only the information needed to
                record your purchase: the PayPal order identifier, the pack purchased, the amount,
                the currency and the status of the payment.
              </>,
              <>
                <Term>User Content.</Term> The photos of rooms you upload, the style and room type
                you choose, the labels you give your jobs, and the staged images the Service
                generates from your photos.
              </>,
            ]}
          />
          <P>
            We use cookies that are strictly necessary to keep you signed in and to protect the
            Service. We do not use advertising cookies and we do not sell your personal
            information.
          </P>
        </>
      ),
    },
    {
      id: 'privacy-how-we-use',
      title: 'How We Use Your Information',
      body: (
        <>
          <P>We use the information we collect to:</P>
          <List
            items={[
              'create and manage your account and keep you signed in;',
              'stage the photos you upload and show your results, your gallery and your credit history;',
              'process credit purchases, add purchased credits to your balance, and debit and refund credits for your stagings;',
              'grant the free trial credits given to new accounts;',
              'respond to your questions and support requests and send you service-related messages, such as purchase confirmations or notices of changes to our terms;',
              'monitor, secure and troubleshoot the Service, and detect and prevent fraud and abuse;',
              'understand how the Service is used so that we can improve its quality and performance;',
              'comply with our legal obligations and enforce our Terms and Conditions.',
            ]}
          />
          <P>
            We do not sell the photos you upload or the staged images, and we do not use your
            information for third-party advertising.
          </P>
        </>
      ),
    },
    {
      id: 'privacy-disclosure',
      title: 'Disclosure of Your Information',
      body: (
        <>
          <P>
            We do not sell or rent your personal information. We share information only in the
            following situations:
          </P>
          <List
            items={[
              <>
                <Term>By Law or to Protect Rights.</Term> We may disclose information when we
                believe in good faith that disclosure is required to comply with a law, regulation,
                subpoena, court order or other legal process, to respond to a lawful request from a
                public authority, or to protect the rights, property or safety of RoomStager, our
                users or others.
              </>,
              <>
                <Term>Service Providers.</Term> We share information with companies that perform
                services on our behalf and only as needed for them to do so, under obligations of
                confidentiality. These include payment processing (PayPal), e-mail delivery,
                hosting and data storage, and AI model providers that receive the photos you upload
                in order to generate the staged images.
              </>,
              <>
                <Term>Business Transfers.</Term> If RoomStager is involved in a merger,
                acquisition, financing, reorganization, bankruptcy or sale of all or part of its
                assets, your information may be transferred as part of that transaction. The
                recipient will remain bound by this Privacy Policy for the information transferred,
                and we will notify you of any such change in ownership.
              </>,
              <>
                <Term>With Your Consent.</Term> We may share information for any other purpose with
                your consent, for example when you choose to share a staged image with others.
              </>,
            ]}
          />
        </>
      ),
    },
    {
      id: 'privacy-security',
      title: 'Security of Your Information',
      body: (
        <>
          <P>
            We use administrative, technical and physical safeguards to protect your information,
            including encrypted connections (HTTPS) between your browser and our servers,
            access controls that limit who can reach your data, and secure session cookies. Your
            photos and staged images are visible only to you while you are signed in, unless you
            choose to share them.
          </P>
          <P>
            No method of transmission over the Internet or of electronic storage is completely
            secure, so we cannot guarantee absolute security. If we learn of a security breach
            that affects your personal information, we will notify you and the relevant
            authorities as required by law.
          </P>
        </>
      ),
    },
    {
      id: 'privacy-retention',
      title: 'Data Retention',
      body: (
        <>
          <P>We keep information only for as long as we need it:</P>
          <List
            items={[
              'Your uploaded photos and staged images are kept until you delete them, or until your account is deleted.',
              'Your account data (name, e-mail address and profile settings) is kept for as long as your account exists.',
              'Records of purchases and credit transactions may be kept for longer where we are required to do so for tax, accounting or other legal purposes.',
              'Server logs are kept for a limited period for security and troubleshooting, and are then deleted.',
            ]}
          />
          <P>
            When you delete a staging job, its photos are removed from our storage; a record of the
            credit transactions linked to it stays in your credit history. Copies in backups are
            overwritten in the ordinary course of our backup cycle.
          </P>
        </>
      ),
    },
    {
      id: 'privacy-your-rights',
      title: 'Your Rights',
      body: (
        <>
          <P>
            Depending on where you live, you may have the following rights regarding your personal
            information:
          </P>
          <List
            items={[
              <>
                <Term>Access.</Term> You may ask for a copy of the personal information we hold
                about you.
              </>,
              <>
                <Term>Rectification.</Term> You may correct inaccurate or incomplete information.
                You can update your name and e-mail address at any time on your profile page.
              </>,
              <>
                <Term>Erasure.</Term> You may ask us to delete your account and your personal
                information. You can delete individual staging jobs and their images yourself from
                your gallery.
              </>,
            ]}
          />
          <P>
            To exercise any of these rights, write to us at <MailLink email={contactEmail} /> from
            the e-mail address associated with your account. We may need to verify your identity
            before acting on your request, and we will respond within the time required by
            applicable law. We will not discriminate against you for exercising your rights.
          </P>
        </>
      ),
    },
    {
      id: 'privacy-children',
      title: 'Children\'s Privacy',
      body: (
        <P>
          The Service is not directed to children under the age of 13, and we do not knowingly
          solicit or collect personal information from children under 13. If we learn that we have
          collected personal information from a child under 13, we will delete it as quickly as
          possible. If you believe a child under 13 has provided us with personal information,
          please contact us at <MailLink email={contactEmail} />.
        </P>
      ),
    },
    {
      id: 'privacy-changes',
      title: 'Changes to This Privacy Policy',
      body: (
        <P>
          We may update this Privacy Policy from time to time to reflect changes in the Service or
          in the law. When we do, we will revise the &quot;Last updated&quot; date at the top of
          this page. If we make material changes, we will notify you by e-mail or by a notice in
          the Service before the changes take effect. Your continued use of the Service after the
          changes take effect means that you accept the updated Privacy Policy.
        </P>
      ),
    },
    {
      id: 'privacy-contact',
      title: 'Contact Us',
      body: (
        <P>
          If you have questions or comments about this Privacy Policy or about how we handle your
          information, please contact us at <MailLink email={contactEmail} />.
        </P>
      ),
    },
  ];
}

export function PrivacyPolicyContent({ contactEmail }: PrivacyPolicyContentProps) {
  return <LegalDocument sections={buildSections(contactEmail)} />;
}
