import { StyleFindings } from '@/lib/brand-voice/components/style-findings';
import { useStyleFindings } from '@/lib/brand-voice/use-style-findings';
import type { GenerationOutput } from '@gem/contracts/writing-tools';

import { styledText, type GenerationState } from '../use-generation';
import styles from './output-panel.module.css';

type OutputStyleProps = {
  state: GenerationState;
  output: GenerationOutput;
  revise: (text: string) => void;
};

/**
 * Under a finished output: the style check that came with it (score, counts, the findings marked
 * in the text), Check for the text as it is now, and Apply, Apply all and Undo changing the
 * output the page shows and copies (paid ads: the ad copy).
 */
export function OutputStyle({ state, output, revise }: OutputStyleProps) {
  const findings = useStyleFindings({
    text: styledText(output),
    onChange: revise,
    target: state.target,
    initial: state.style,
  });
  return (
    <div className={styles.style}>
      <StyleFindings state={findings} />
    </div>
  );
}
