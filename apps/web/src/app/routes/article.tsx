import { ArticleGenerator } from '@/features/article/components/article-generator';

import { ToolPage } from './tool-page';

export function ArticleRoute() {
  return (
    <ToolPage
      title="Article"
      description="Turn your base content into a short article, ready to check and copy."
    >
      <ArticleGenerator />
    </ToolPage>
  );
}
