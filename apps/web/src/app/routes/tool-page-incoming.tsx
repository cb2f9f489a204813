import { findTool, type ToolSlug } from '@gem/contracts/catalogue';

import { PageIncoming } from './page-incoming';

/** Placeholder for a tool page: "Tools / <tool name>", until the tool itself is built. */
export function ToolPageIncoming({ slug }: { slug: ToolSlug }) {
  const tool = findTool(slug);
  const name = tool?.name ?? 'This tool';
  return (
    <PageIncoming
      subject={name}
      trail={[{ label: 'Tools', to: '/tools' }, { label: name }]}
      back={{ to: '/tools', label: 'Back to all tools' }}
      imageSrc={tool?.photo}
    />
  );
}
