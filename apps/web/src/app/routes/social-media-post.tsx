import { SocialMediaPostGenerator } from '@/features/social-media-post/components/social-media-post-generator';

import { ToolPage } from './tool-page';

export function SocialMediaPostRoute() {
  return (
    <ToolPage
      title="Social media post"
      description="Summarize a document, say what the post should do, and get a post in the CEO's voice."
    >
      <SocialMediaPostGenerator />
    </ToolPage>
  );
}
