import { RegistrationNotice } from '@/features/identity/components/registration-notice';

export function RegisterRoute() {
  return <RegistrationNotice />;
}
