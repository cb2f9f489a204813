/** True when the page is the provider's answer to a sign-in (redirect or popup). */
export function isSigninCallback(url: URL): boolean {
  return url.searchParams.has('state') && (url.searchParams.has('code') || url.searchParams.has('error'));
}
