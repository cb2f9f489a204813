import { SignOut } from '@/features/identity/components/sign-out';

export function LogoutRoute() {
  return <SignOut />;
}
