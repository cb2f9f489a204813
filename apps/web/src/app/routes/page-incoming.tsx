import { Badge } from '@/components/ui/badge';
import { Breadcrumbs, type Crumb } from '@/components/ui/breadcrumbs';
import { ButtonLink } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { ArrowLeftIcon, HomeIcon } from '@/components/ui/icons';
import { StatusPanel } from '@/components/ui/status-panel';
import { useDocumentTitle } from '@/hooks/use-document-title';

type PageIncomingProps = {
  /** What this page will be, e.g. "Article" or "Sign in". Used in the tab title and text. */
  subject: string;
  /** Where the page sits, e.g. Tools / Article. */
  trail?: readonly Crumb[];
  back?: { to: string; label: string };
  imageSrc?: string;
};

/** The 'Page incoming' placeholder every not-yet-built page shows. */
export function PageIncoming({ subject, trail, back, imageSrc }: PageIncomingProps) {
  useDocumentTitle(subject);
  return (
    <Container>
      <StatusPanel
        kicker={
          <>
            {trail ? <Breadcrumbs trail={trail} /> : null}
            <Badge tone="brand">On its way</Badge>
          </>
        }
        title="Page incoming"
        imageSrc={imageSrc ?? '/images/page-incoming.svg'}
        imageAlt=""
        actions={
          <>
            {back ? (
              <ButtonLink to={back.to}>
                <ArrowLeftIcon />
                {back.label}
              </ButtonLink>
            ) : null}
            <ButtonLink to="/" variant={back ? 'secondary' : 'primary'}>
              <HomeIcon />
              Go to home
            </ButtonLink>
          </>
        }
      >
        <p>
          <strong>{subject}</strong> is on its way. This part of GEM is being built right now and will appear
          here soon.
        </p>
      </StatusPanel>
    </Container>
  );
}
