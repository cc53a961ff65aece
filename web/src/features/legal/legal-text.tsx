import type { ReactNode } from 'react';

/** The building blocks of the legal pages: numbered sections of paragraphs and lists. */
export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

const headingClass = 'text-xl font-semibold text-slate-900 mt-10 mb-3';
const linkClass = 'font-medium text-accent-700 underline underline-offset-2 hover:text-accent-800';

export function P({ children }: { children: ReactNode }) {
  return <p className="mb-4 leading-7 text-slate-700">{children}</p>;
}

export function List({ items }: { items: ReactNode[] }) {
  return (
    <ul className="mb-4 list-disc space-y-2 pl-6 leading-7 text-slate-700">
      {items.map((item, index) => (
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}

export function Term({ children }: { children: ReactNode }) {
  return <strong className="font-semibold text-slate-900">{children}</strong>;
}

export function MailLink({ email }: { email: string }) {
  return (
    <a className={linkClass} href={`mailto:${email}`}>
      {email}
    </a>
  );
}

/** The date line, then each section under a numbered heading ('1. ...'). */
export function LegalDocument({ sections }: { sections: LegalSection[] }) {
  return (
    <div>
      <p className="mb-8 text-sm text-slate-500">Last updated: August 8, 2025</p>
      {sections.map((section, index) => (
        <section key={section.id} aria-labelledby={section.id}>
          <h2 id={section.id} className={headingClass}>
            {`${index + 1}. ${section.title}`}
          </h2>
          {section.body}
        </section>
      ))}
    </div>
  );
}
