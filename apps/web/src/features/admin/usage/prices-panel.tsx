import type { ModelPrice, UsageModel } from '@gem/contracts/admin-usage';
import { useId, useState, type FormEvent } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { TextInput } from '@/components/ui/fields';
import { Panel } from '@/components/ui/panel';
import { ApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { formatInteger } from '@/lib/format-number';

import { usePrices, useRemovePrice, useSetPrice } from './api/usage';
import styles from './usage-section.module.css';

/** The server's words for a refused change: the fields' issues, else its message. */
function problemOf(error: unknown): string {
  if (error instanceof ApiError) {
    return error.issues.length > 0
      ? [...new Set(error.issues.map((i) => i.message))].join(' ')
      : error.message;
  }
  return 'The price could not be saved. Try again.';
}

/** A number as typed ('0.0025', '1,5' too), else the text as it is, so the server says what is wrong. */
const priceOf = (text: string): number | string => {
  const trimmed = text.trim().replace(',', '.');
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : text;
};

/**
 * The models' prices per 1,000 tokens in and out: every model seen in the range's usage and
 * every priced one, each set or removed here. The usage page's cost is estimated with them.
 */
export function PricesPanel({ seen }: { seen: readonly UsageModel[] }) {
  const headingId = useId();
  const prices = usePrices();
  const priced = new Map((prices.data?.prices ?? []).map((p) => [p.model, p]));
  const models = [...new Set([...seen.map((m) => m.model).filter((m) => m !== ''), ...priced.keys()])].sort();
  const tokensOf = new Map(seen.map((m) => [m.model, m.promptTokens + m.completionTokens]));
  return (
    <Panel as="section" className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <div>
          <h2 id={headingId} className={styles.title}>
            Model prices
          </h2>
          <p className={styles.muted}>
            Per 1,000 tokens in (the prompt) and out (the answer), in one currency of your choice. The cost is
            estimated with the price set now, for the whole range.
          </p>
        </div>
      </div>
      {prices.isError ? (
        <p className={styles.problem} role="alert">
          The prices could not be loaded.
        </p>
      ) : null}
      <ul className={styles.prices}>
        {models.map((model) => (
          <PriceRow
            key={model}
            model={model}
            price={priced.get(model) ?? null}
            tokens={tokensOf.get(model) ?? null}
          />
        ))}
        <PriceRow model={null} price={null} tokens={null} />
      </ul>
    </Panel>
  );
}

function PriceRow({
  model,
  price,
  tokens,
}: {
  model: string | null;
  price: ModelPrice | null;
  tokens: number | null;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [input, setInput] = useState(price ? String(price.inputPer1k) : '');
  const [output, setOutput] = useState(price ? String(price.outputPer1k) : '');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSetPrice();
  const remove = useRemovePrice();
  const label = model ?? 'Another model';

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    save.mutate(
      { model: model ?? name, inputPer1k: priceOf(input) as number, outputPer1k: priceOf(output) as number },
      {
        onSuccess: () => {
          if (model === null) {
            setName('');
            setInput('');
            setOutput('');
          }
        },
        onError: (error) => setProblem(problemOf(error)),
      },
    );
  }

  return (
    <li className={styles.price}>
      <form className={styles.priceForm} onSubmit={submit} noValidate aria-label={`Price of ${label}`}>
        <div className={styles.priceModel}>
          {model === null ? (
            <div className={styles.field}>
              <label htmlFor={`${id}-model`} className={styles.label}>
                Another model
              </label>
              <TextInput
                id={`${id}-model`}
                value={name}
                autoComplete="off"
                onChange={(e) => setName(e.target.value)}
              />
            </div>
          ) : (
            <>
              <strong className={styles.modelName}>{model}</strong>
              <span className={styles.muted}>
                {tokens === null ? 'Not used in this range' : `${formatInteger(tokens)} tokens in this range`}
              </span>
              {price ? (
                <span className={styles.muted}>
                  Set {formatDateTime(price.updatedAt)}
                  {price.updatedBy ? ` by ${price.updatedBy}` : ''}
                </span>
              ) : (
                <Badge tone="brand" size="small">
                  No price
                </Badge>
              )}
            </>
          )}
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-in`} className={styles.label}>
            In, per 1,000
          </label>
          <TextInput
            id={`${id}-in`}
            inputMode="decimal"
            autoComplete="off"
            value={input}
            className={styles.priceInput}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(e) => setInput(e.target.value)}
          />
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-out`} className={styles.label}>
            Out, per 1,000
          </label>
          <TextInput
            id={`${id}-out`}
            inputMode="decimal"
            autoComplete="off"
            value={output}
            className={styles.priceInput}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(e) => setOutput(e.target.value)}
          />
        </div>
        <div className={styles.priceActions}>
          <Button type="submit" disabled={save.isPending} aria-label={`Save the price of ${label}`}>
            {save.isPending ? 'Saving…' : 'Save'}
          </Button>
          {price ? (
            <Button
              variant="secondary"
              disabled={remove.isPending}
              aria-label={`Remove the price of ${label}`}
              onClick={() =>
                remove.mutate(price.model, {
                  onSuccess: () => {
                    setInput('');
                    setOutput('');
                  },
                  onError: (error) => setProblem(problemOf(error)),
                })
              }
            >
              Remove
            </Button>
          ) : null}
        </div>
        {problem ? (
          <p id={`${id}-problem`} className={styles.problem} role="alert">
            {problem}
          </p>
        ) : null}
      </form>
    </li>
  );
}
