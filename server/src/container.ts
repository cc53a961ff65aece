import { GOOGLE_ISSUER_URL, type Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { DevOidcIssuer } from './dev/oidc-issuer.ts';
import { OidcClient } from './integrations/google-oidc.ts';
import { AuthService } from './services/auth.service.ts';
import { CreditsService } from './services/credits.service.ts';
import { UsersService } from './services/users.service.ts';

/** Composition root: every long-lived part of the server, built once from the configuration. */
export interface Container {
  config: Config;
  database: Database;
  /** The OpenID Connect client: Google (or OIDC_ISSUER_URL), else the development issuer. */
  oidc: OidcClient;
  /** The development issuer, mounted under /dev/oidc; absent in production and with Google settings. */
  devIssuer: DevOidcIssuer | undefined;
  credits: CreditsService;
  users: UsersService;
  auth: AuthService;
}

/** Tests pass their own parts (a fresh database, a fake provider); the rest comes from config. */
export type ContainerOverrides = Partial<Omit<Container, 'config'>>;

export async function createContainer(config: Config, overrides: ContainerOverrides = {}): Promise<Container> {
  const database =
    overrides.database ??
    (await openDatabase(
      config.DATABASE_URL
        ? { kind: 'postgres', url: config.DATABASE_URL }
        : { kind: 'pglite', dataDir: `${config.DATA_DIR}/pglite` },
    ));

  const settings = config.oidc;
  let devIssuer = overrides.devIssuer;
  let oidc = overrides.oidc;
  if (!oidc) {
    if (settings.kind === 'google') {
      oidc = new OidcClient({ ...settings, allowInsecure: !config.production });
    } else {
      if (config.production) throw new Error('The development sign-in never runs in production');
      devIssuer ??= await DevOidcIssuer.create(settings);
      oidc = new OidcClient({
        ...settings,
        clientSecret: devIssuer.clientSecret,
        allowInsecure: true,
        fetch: devIssuer.fetch,
      });
    }
  }

  const db = database.db;
  const credits = overrides.credits ?? new CreditsService(db);
  const users = overrides.users ?? new UsersService(db, credits);
  const auth = overrides.auth ?? new AuthService(db, users, oidc);
  return { config, database, oidc, devIssuer, credits, users, auth };
}

/** What runs for each role, printed at start so a newcomer sees what is real and what is a stand-in. */
export function describeParts(container: Container): Array<[role: string, part: string]> {
  const { config, devIssuer } = container;
  const signIn = devIssuer
    ? devIssuer.description
    : config.oidc.issuerUrl === GOOGLE_ISSUER_URL
      ? 'Google OpenID Connect'
      : `OpenID Connect at ${config.oidc.issuerUrl}`;
  return [
    ['database', container.database.description],
    ['sign-in', signIn],
  ];
}
