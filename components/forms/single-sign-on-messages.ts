/** The sign-in page's `?error=` codes that come from single sign-on: next-auth's, then Mailstead's refusals. */
const MESSAGES: Record<string, string> = {
  OAuthSignin: 'The single sign-on provider could not be reached. Try again in a moment, or ask your administrator.',
  OAuthCallback:
    "The single sign-on provider's answer could not be verified, so you were not signed in. Try again; if it keeps happening, ask your administrator.",
  Callback: 'Single sign-on did not finish (it may have been cancelled at the provider). Try again.',
  AccessDenied: 'Single sign-on was refused.',
  SingleSignOnNoEmail:
    'Your single sign-on provider did not share an email address, so Mailstead cannot tell who you are. Ask your administrator.',
  SingleSignOnUnverifiedEmail:
    'Your single sign-on provider has not verified your email address, so it cannot sign you in to Mailstead. Verify the address with your provider, or sign in with your password.',
  SingleSignOnUnknownEmail: 'No Mailstead user has this address; ask an administrator to invite you.',
};

/** The words for a code of the sign-in page's URL, or null when the code is not single sign-on's. */
export function singleSignOnMessage(code: string | null | undefined): string | null {
  return code && Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : null;
}
