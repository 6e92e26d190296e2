import { createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person the provider knows, by the login typed on its sign-in screen. */
export type OidcPerson = { email: string; emailVerified: boolean; name?: string };

export type OidcProviderHandle = {
  /** `OIDC_ISSUER` for Mailstead: http on loopback. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds a person the next sign-in can use: their login on the provider's own screen. */
  addPerson(login: string, person: OidcPerson): void;
  /** Signs the next ID tokens (with the provider's own key) for this audience instead of the client. */
  issueTokensFor(audience: string | null): void;
  stop(): Promise<void>;
};

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * A real OpenID provider (panva's oidc-provider) on 127.0.0.1 with one confidential client for a
 * Mailstead server at `publicUrl`. Its development screens (login: any password; then consent) are
 * what the browser goes through; ID tokens carry email, email_verified and name.
 */
export async function startOidcProvider(publicUrl: string): Promise<OidcProviderHandle> {
  const people = new Map<string, OidcPerson>();
  const clientId = 'mailstead-e2e';
  const clientSecret = randomBytes(24).toString('base64url');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'e2e-signing-key', use: 'sig', alg: 'RS256' };
  let audienceOverride: string | null = null;

  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${publicUrl}/api/auth/callback/oidc`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // As most providers do (and next-auth reads): the scopes' claims in the ID token itself.
    conformIdTokenClaims: false,
    async findAccount(_ctx, login) {
      const person = people.get(login);
      if (!person) return undefined;
      return {
        accountId: login,
        claims: async () => ({
          sub: login,
          email: person.email,
          email_verified: person.emailVerified,
          ...(person.name ? { name: person.name } : {}),
        }),
      };
    },
  });
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && audienceOverride && body?.id_token) {
      body.id_token = resign(body.id_token, { aud: audienceOverride });
    }
  });
  handle = provider.callback();

  /** The same token with `changes`, signed again with the provider's key: only the changed claim is wrong. */
  function resign(token: string, changes: Record<string, unknown>): string {
    const [header, payload] = token.split('.');
    const claims = { ...JSON.parse(Buffer.from(payload, 'base64url').toString()), ...changes };
    const signingInput = `${header}.${base64url(JSON.stringify(claims))}`;
    const signature = createSign('RSA-SHA256').update(signingInput).sign(privateKey);
    return `${signingInput}.${base64url(signature)}`;
  }

  return {
    issuer,
    clientId,
    clientSecret,
    addPerson: (login, person) => void people.set(login, person),
    issueTokensFor: (audience) => void (audienceOverride = audience),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
