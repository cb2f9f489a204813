// oidc-provider's request context: one AsyncLocalStorage, entered for each of its requests
// (lib/helpers/initialize_app.js). The package ships no types for its internal modules.
declare module 'oidc-provider/lib/helpers/als.js' {
  import type { AsyncLocalStorage } from 'node:async_hooks';

  const providerContext: AsyncLocalStorage<unknown>;
  export default providerContext;
}
