import { SignInPanel } from '@/features/identity/components/sign-in-panel';

export function LoginRoute() {
  return <SignInPanel />;
}
