import type { BrandVersion } from '@gem/contracts/brand-voice';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';

import { useBrandProfile } from './api/brand-voice';
import styles from './brand-voice-section.module.css';
import { ProfileEditor } from './profile-editor';
import { TermForms } from './term-forms';
import { VersionsPanel } from './versions-panel';

/**
 * The admin area's brand voice (issue 31): the profile every generator sends and the style
 * check reads, edited part by part and saved as a new version; the forms each term was expanded
 * to (what the check will catch); every version, and two compared part by part.
 */
export function BrandVoiceSection() {
  const profile = useBrandProfile();
  const [saved, setSaved] = useState<number | null>(null);

  if (profile.isPending) return <EmptyState role="status">Loading the brand profile…</EmptyState>;
  if (profile.isError) {
    return (
      <EmptyState tone="problem" role="alert">
        The brand profile could not be loaded.{' '}
        <Button variant="secondary" onClick={() => void profile.refetch()}>
          Try again
        </Button>
      </EmptyState>
    );
  }
  const current: BrandVersion | null = profile.data.current;
  return (
    <div className={styles.section}>
      <ProfileEditor
        // A new version (saved here, or reloaded after someone else's) starts the editor afresh.
        key={current?.version ?? 'none'}
        current={current}
        savedNow={saved !== null && saved === current?.version}
        onSaved={setSaved}
        onReload={async () => {
          setSaved(null);
          await profile.refetch();
        }}
      />
      {current ? <TermForms version={current} /> : null}
      <VersionsPanel current={current?.version ?? null} />
    </div>
  );
}
