import {
  brandTargetIds,
  brandTargetLabel,
  type BrandTarget,
  type BrandVersion,
} from '@gem/contracts/brand-voice';
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { TextArea, TextInput } from '@/components/ui/fields';
import { Panel } from '@/components/ui/panel';
import { ApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { formatInteger } from '@/lib/format-number';

import { useSaveBrandProfile } from './api/brand-voice';
import styles from './brand-voice-section.module.css';
import {
  draftOf,
  emptyDraft,
  issuesAt,
  lineIssues,
  parseBannedLines,
  profileOf,
  type Issues,
  type LineField,
  type ProfileDraft,
} from './profile-draft';

/** Each tool and channel (the contract lists the article, both, once). */
const targets = brandTargetIds;

/** Above this many banned terms the list gets a filter. */
const FILTER_FROM = 8;

type Problem = { message: string; conflict: boolean } | null;

/**
 * Every part of the brand profile, saved as a new version with an optional note. The server's
 * 400 is shown at each field (what was typed stays); a 409 says someone else saved and offers
 * to load their version.
 */
export function ProfileEditor({
  current,
  savedNow,
  onSaved,
  onReload,
}: {
  current: BrandVersion | null;
  savedNow: boolean;
  onSaved: (version: number) => void;
  onReload: () => Promise<void>;
}) {
  const [draft, setDraft] = useState<ProfileDraft>(() => (current ? draftOf(current.profile) : emptyDraft()));
  const [note, setNote] = useState('');
  const [issues, setIssues] = useState<Issues>({});
  const [problem, setProblem] = useState<Problem>(null);
  const save = useSaveBrandProfile();
  const id = useId();

  const update = (change: Partial<ProfileDraft>) => setDraft((d) => ({ ...d, ...change }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setIssues({});
    save.mutate(
      { profile: profileOf(draft), basedOn: current?.version ?? null, ...(note.trim() ? { note } : {}) },
      {
        onSuccess: (answer) => {
          if (answer.current) onSaved(answer.current.version);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.issues.length > 0) {
            setIssues(
              Object.fromEntries(error.issues.map((i) => [i.path.replace(/^body\./, ''), i.message])),
            );
            setProblem({
              message: 'Some fields are not valid: see the messages at each of them.',
              conflict: false,
            });
          } else if (error instanceof ApiError) {
            setProblem({ message: error.message, conflict: error.status === 409 });
          } else {
            setProblem({ message: 'The brand profile could not be saved. Try again.', conflict: false });
          }
        },
      },
    );
  }

  const count = Object.keys(issues).length;
  return (
    <Panel as="form" className={styles.panel} onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <div className={styles.panelHeader}>
        <h2 id={`${id}-title`} className={styles.title}>
          Brand profile
        </h2>
        <p className={styles.description}>
          {current ? (
            <>
              Version {formatInteger(current.version)}, saved{' '}
              {current.savedBy ? `by ${current.savedBy} ` : 'by GEM '}
              on {formatDateTime(current.savedAt)}. Every save is a new version; every generator sends the
              version in force and the style check reads texts against it.
            </>
          ) : (
            'No profile is saved yet: the generators write without one and the check reads typography only.'
          )}
        </p>
        {savedNow && current ? (
          <p className={styles.saved} role="status">
            Saved as version {formatInteger(current.version)}. It is in force now; the forms each term was
            found in are listed below.
          </p>
        ) : null}
      </div>

      <Part title="Voice" hint="3 to 6 attributes, each with a short explanation.">
        <Rows
          label="Voice attributes"
          items={draft.attributes}
          max={6}
          addLabel="Add an attribute"
          onAdd={() => update({ attributes: [...draft.attributes, { name: '', explanation: '' }] })}
          onRemove={(index) => update({ attributes: draft.attributes.filter((_, i) => i !== index) })}
          itemLabel={(index) => `attribute ${index + 1}`}
          problems={ownIssues(issues, 'profile.voice.attributes')}
          render={(attribute, index) => (
            <>
              <Field
                label={`Attribute ${index + 1}`}
                problems={issuesAt(issues, `profile.voice.attributes.${index}.name`)}
              >
                {(props) => (
                  <TextInput
                    {...props}
                    density="compact"
                    value={attribute.name}
                    placeholder="ekspercki, ale przystępny"
                    onChange={(e) =>
                      update({ attributes: replace(draft.attributes, index, { name: e.target.value }) })
                    }
                  />
                )}
              </Field>
              <Field
                label="Explanation"
                wide
                problems={issuesAt(issues, `profile.voice.attributes.${index}.explanation`)}
              >
                {(props) => (
                  <TextInput
                    {...props}
                    density="compact"
                    value={attribute.explanation}
                    onChange={(e) =>
                      update({
                        attributes: replace(draft.attributes, index, { explanation: e.target.value }),
                      })
                    }
                  />
                )}
              </Field>
            </>
          )}
        />
        <fieldset className={styles.choice}>
          <legend className={styles.label}>Form of address</legend>
          {(
            [
              ['panstwo', 'Państwo (formal)'],
              ['ty', 'Ty (informal)'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className={styles.option}>
              <input
                type="radio"
                name={`${id}-address`}
                checked={draft.address === value}
                onChange={() => update({ address: value })}
              />
              {label}
            </label>
          ))}
        </fieldset>
      </Part>

      <Part title="Audience notes" hint="Who reads the texts and what they care about.">
        <Field label="Audience notes" hideLabel problems={issuesAt(issues, 'profile.audienceNotes')}>
          {(props) => (
            <TextArea
              {...props}
              rows={3}
              value={draft.audienceNotes}
              onChange={(e) => update({ audienceNotes: e.target.value })}
            />
          )}
        </Field>
      </Part>

      <Part title="Do and don’t examples" hint="Short paired texts: one to follow, one to avoid.">
        <Rows
          label="Do and don’t examples"
          items={draft.examples}
          max={10}
          addLabel="Add an example pair"
          onAdd={() => update({ examples: [...draft.examples, { do: '', dont: '' }] })}
          onRemove={(index) => update({ examples: draft.examples.filter((_, i) => i !== index) })}
          itemLabel={(index) => `example pair ${index + 1}`}
          problems={ownIssues(issues, 'profile.examples')}
          render={(example, index) => (
            <>
              <Field label="Do" wide problems={issuesAt(issues, `profile.examples.${index}.do`)}>
                {(props) => (
                  <TextArea
                    {...props}
                    density="compact"
                    rows={2}
                    value={example.do}
                    onChange={(e) =>
                      update({ examples: replace(draft.examples, index, { do: e.target.value }) })
                    }
                  />
                )}
              </Field>
              <Field label="Don’t" wide problems={issuesAt(issues, `profile.examples.${index}.dont`)}>
                {(props) => (
                  <TextArea
                    {...props}
                    density="compact"
                    rows={2}
                    value={example.dont}
                    onChange={(e) =>
                      update({ examples: replace(draft.examples, index, { dont: e.target.value }) })
                    }
                  />
                )}
              </Field>
            </>
          )}
        />
      </Part>

      <Part title="Preferred terms" hint="The term to use, the words it replaces (comma-separated) and why.">
        <Rows
          label="Preferred terms"
          items={draft.preferred}
          max={1_000}
          addLabel="Add a preferred term"
          onAdd={() => update({ preferred: [...draft.preferred, { term: '', replaces: '', reason: '' }] })}
          onRemove={(index) => update({ preferred: draft.preferred.filter((_, i) => i !== index) })}
          itemLabel={(index) => `preferred term ${index + 1}`}
          problems={ownIssues(issues, 'profile.preferred')}
          render={(entry, index) => (
            <>
              <Field label="Use" problems={issuesAt(issues, `profile.preferred.${index}.term`)}>
                {(props) => (
                  <TextInput
                    {...props}
                    density="compact"
                    value={entry.term}
                    placeholder="klient"
                    onChange={(e) =>
                      update({ preferred: replace(draft.preferred, index, { term: e.target.value }) })
                    }
                  />
                )}
              </Field>
              <Field label="Instead of" problems={issuesAt(issues, `profile.preferred.${index}.replaces`)}>
                {(props) => (
                  <TextInput
                    {...props}
                    density="compact"
                    value={entry.replaces}
                    placeholder="petent"
                    onChange={(e) =>
                      update({ preferred: replace(draft.preferred, index, { replaces: e.target.value }) })
                    }
                  />
                )}
              </Field>
              <Field label="Reason" wide problems={issuesAt(issues, `profile.preferred.${index}.reason`)}>
                {(props) => (
                  <TextInput
                    {...props}
                    density="compact"
                    value={entry.reason}
                    onChange={(e) =>
                      update({ preferred: replace(draft.preferred, index, { reason: e.target.value }) })
                    }
                  />
                )}
              </Field>
            </>
          )}
        />
      </Part>

      <BannedTerms draft={draft} issues={issues} update={update} />

      <Part
        title="Names in their exact spelling"
        hint="Service lines and products, one a line: the check flags any other spelling. Paste a list as it is."
      >
        <LinesField field="names" label="Names" draft={draft} issues={issues} update={update} rows={5} />
      </Part>

      <Part
        title="Mandatory disclaimers"
        hint="Text that must appear in what is written for the tools and channels ticked."
      >
        <Rows
          label="Disclaimers"
          items={draft.disclaimers}
          max={20}
          addLabel="Add a disclaimer"
          onAdd={() => update({ disclaimers: [...draft.disclaimers, { text: '', targets: [] }] })}
          onRemove={(index) => update({ disclaimers: draft.disclaimers.filter((_, i) => i !== index) })}
          itemLabel={(index) => `disclaimer ${index + 1}`}
          problems={ownIssues(issues, 'profile.disclaimers')}
          render={(entry, index) => (
            <>
              <Field
                label={`Disclaimer ${index + 1}`}
                wide
                problems={issuesAt(issues, `profile.disclaimers.${index}.text`)}
              >
                {(props) => (
                  <TextArea
                    {...props}
                    density="compact"
                    rows={2}
                    value={entry.text}
                    onChange={(e) =>
                      update({ disclaimers: replace(draft.disclaimers, index, { text: e.target.value }) })
                    }
                  />
                )}
              </Field>
              <fieldset className={styles.targets}>
                <legend className={styles.smallLabel}>Must appear in</legend>
                {targets.map((target) => (
                  <label key={target} className={styles.option}>
                    <input
                      type="checkbox"
                      checked={entry.targets.includes(target)}
                      onChange={(e) =>
                        update({
                          disclaimers: replace(draft.disclaimers, index, {
                            targets: toggled(entry.targets, target, e.target.checked),
                          }),
                        })
                      }
                    />
                    {brandTargetLabel(target)}
                  </label>
                ))}
                <Problems problems={issuesAt(issues, `profile.disclaimers.${index}.targets`)} />
              </fieldset>
            </>
          )}
        />
      </Part>

      <Part title="Company facts" hint="What the generators may use, one a line.">
        <div className={styles.facts}>
          <LinesField
            field="serviceLines"
            label="Service lines"
            draft={draft}
            issues={issues}
            update={update}
          />
          <LinesField field="offices" label="Offices" draft={draft} issues={issues} update={update} />
          <LinesField field="claims" label="Claims allowed" draft={draft} issues={issues} update={update} />
        </div>
      </Part>

      <Part title="Acronyms" hint="Capitals that are not shouting (beside AI, CEO, ESG, VAT…), one a line.">
        <LinesField
          field="acronyms"
          label="Acronyms"
          draft={draft}
          issues={issues}
          update={update}
          rows={3}
        />
      </Part>

      <Problems problems={issues.profile ? [issues.profile] : []} />

      <div className={styles.saveBar}>
        <Field label="Note (optional)" wide problems={issuesAt(issues, 'note')}>
          {(props) => (
            <TextInput
              {...props}
              value={note}
              placeholder="What changed, e.g. banned “tani”"
              onChange={(e) => setNote(e.target.value)}
            />
          )}
        </Field>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending
            ? 'Saving…'
            : current
              ? `Save as version ${formatInteger(current.version + 1)}`
              : 'Save as version 1'}
        </Button>
      </div>
      {problem ? (
        <div className={styles.problemBox} role="alert">
          <p>
            {problem.message}
            {count > 0 ? ` (${formatInteger(count)} ${count === 1 ? 'field' : 'fields'})` : ''}
          </p>
          {problem.conflict ? (
            <Button variant="secondary" onClick={() => void onReload()}>
              Load the latest version
            </Button>
          ) : null}
        </div>
      ) : null}
    </Panel>
  );
}

/** The issues at `path` itself (a list's own limit), not at its entries. */
function ownIssues(issues: Issues, path: string): string[] {
  return issues[path] ? [issues[path]] : [];
}

function replace<T>(list: readonly T[], index: number, change: Partial<T>): T[] {
  return list.map((item, i) => (i === index ? { ...item, ...change } : item));
}

function toggled(list: readonly BrandTarget[], target: BrandTarget, on: boolean): BrandTarget[] {
  return on ? targets.filter((t) => t === target || list.includes(t)) : list.filter((t) => t !== target);
}

function Part({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className={styles.part} aria-labelledby={id}>
      <div>
        <h3 id={id} className={styles.partTitle}>
          {title}
        </h3>
        <p className={styles.hint}>{hint}</p>
      </div>
      {children}
    </section>
  );
}

function Problems({ problems, id }: { problems: readonly string[]; id?: string }) {
  if (problems.length === 0) return null;
  return (
    <p id={id} className={styles.problem}>
      {problems.join(' ')}
    </p>
  );
}

type ControlProps = { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string };

/** A labelled control with the server's words for it under it. */
function Field({
  label,
  hideLabel = false,
  wide = false,
  problems,
  children,
}: {
  label: string;
  hideLabel?: boolean;
  wide?: boolean;
  problems: readonly string[];
  children: (props: ControlProps) => ReactNode;
}) {
  const id = useId();
  const bad = problems.length > 0;
  return (
    <div className={`${styles.field} ${wide ? styles.wide : ''}`}>
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : styles.smallLabel}>
        {label}
      </label>
      {children({ id, ...(bad ? { 'aria-invalid': true, 'aria-describedby': `${id}-problem` } : {}) })}
      <Problems problems={problems} id={`${id}-problem`} />
    </div>
  );
}

/** A list of rows, each removable, and its Add button. */
function Rows<T>({
  label,
  items,
  max,
  addLabel,
  onAdd,
  onRemove,
  itemLabel,
  problems,
  render,
  shown,
}: {
  label: string;
  items: readonly T[];
  max: number;
  addLabel: string;
  onAdd: () => void;
  onRemove: (index: number) => void;
  itemLabel: (index: number) => string;
  problems: readonly string[];
  render: (item: T, index: number) => ReactNode;
  /** The indexes to show (a filter); every row unless given. */
  shown?: readonly number[];
}) {
  const indexes = shown ?? items.map((_, i) => i);
  return (
    <div className={styles.rowsBlock}>
      {indexes.length > 0 ? (
        <ul className={styles.rows} aria-label={label}>
          {indexes.map((index) => (
            <li key={index} className={styles.row}>
              {render(items[index]!, index)}
              <Button variant="secondary" className={styles.remove} onClick={() => onRemove(index)}>
                Remove<span className="visually-hidden"> {itemLabel(index)}</span>
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <Problems problems={problems} />
      <div>
        <Button variant="secondary" onClick={onAdd} disabled={items.length >= max}>
          {addLabel}
        </Button>
      </div>
    </div>
  );
}

/** A plain list as one entry a line, with each issue at its line. */
function LinesField({
  field,
  label,
  draft,
  issues,
  update,
  rows = 4,
}: {
  field: LineField;
  label: string;
  draft: ProfileDraft;
  issues: Issues;
  update: (change: Partial<ProfileDraft>) => void;
  rows?: number;
}) {
  const text = draft[field];
  const entries = text.split('\n').filter((line) => line.trim() !== '').length;
  return (
    <Field label={`${label} (${formatInteger(entries)})`} wide problems={lineIssues(issues, field, text)}>
      {(props) => (
        <TextArea {...props} rows={rows} value={text} onChange={(e) => update({ [field]: e.target.value })} />
      )}
    </Field>
  );
}

/** Banned terms: rows with a filter for long lists, and many pasted at once. */
function BannedTerms({
  draft,
  issues,
  update,
}: {
  draft: ProfileDraft;
  issues: Issues;
  update: (change: Partial<ProfileDraft>) => void;
}) {
  const [filter, setFilter] = useState('');
  const [pasting, setPasting] = useState(false);
  const [pasted, setPasted] = useState('');
  const filterId = useId();
  const pasteId = useId();
  const shown = useMemo(() => {
    const q = filter.trim().toLocaleLowerCase('pl');
    return draft.banned.flatMap((entry, index) =>
      // Rows with a problem stay in sight whatever the filter.
      !q ||
      entry.term.toLocaleLowerCase('pl').includes(q) ||
      issuesAt(issues, `profile.banned.${index}`).length > 0
        ? [index]
        : [],
    );
  }, [draft.banned, filter, issues]);
  const { banned } = draft;
  return (
    <Part
      title={`Banned terms (${formatInteger(banned.length)})`}
      hint="Words the texts must not use, in any inflected form, each with a reason and a suggested replacement."
    >
      {banned.length >= FILTER_FROM ? (
        <div className={styles.field}>
          <label htmlFor={filterId} className={styles.smallLabel}>
            Find a banned term
          </label>
          <TextInput
            id={filterId}
            type="search"
            density="compact"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
        </div>
      ) : null}
      <Rows
        label="Banned terms"
        items={banned}
        max={1_000}
        shown={shown}
        addLabel="Add a banned term"
        onAdd={() => {
          setFilter('');
          update({ banned: [...banned, { term: '', reason: '', replacement: '' }] });
        }}
        onRemove={(index) => update({ banned: banned.filter((_, i) => i !== index) })}
        itemLabel={(index) =>
          `banned term ${index + 1}${banned[index]?.term ? ` “${banned[index].term}”` : ''}`
        }
        problems={ownIssues(issues, 'profile.banned')}
        render={(entry, index) => (
          <>
            <Field label="Banned term" problems={issuesAt(issues, `profile.banned.${index}.term`)}>
              {(props) => (
                <TextInput
                  {...props}
                  density="compact"
                  value={entry.term}
                  placeholder="tani"
                  onChange={(e) => update({ banned: replace(banned, index, { term: e.target.value }) })}
                />
              )}
            </Field>
            <Field label="Reason" wide problems={issuesAt(issues, `profile.banned.${index}.reason`)}>
              {(props) => (
                <TextInput
                  {...props}
                  density="compact"
                  value={entry.reason}
                  onChange={(e) => update({ banned: replace(banned, index, { reason: e.target.value }) })}
                />
              )}
            </Field>
            <Field label="Replacement" problems={issuesAt(issues, `profile.banned.${index}.replacement`)}>
              {(props) => (
                <TextInput
                  {...props}
                  density="compact"
                  value={entry.replacement}
                  onChange={(e) =>
                    update({ banned: replace(banned, index, { replacement: e.target.value }) })
                  }
                />
              )}
            </Field>
          </>
        )}
      />
      {pasting ? (
        <div className={styles.paste}>
          <label htmlFor={pasteId} className={styles.smallLabel}>
            Banned terms, one a line: term | reason | replacement (each needs a reason)
          </label>
          <TextArea
            id={pasteId}
            rows={5}
            value={pasted}
            placeholder={'tani | Brzmi jak niska jakość. | przystępny\nkompleksowy | Ogólnik.'}
            onChange={(e) => setPasted(e.target.value)}
          />
          <div className={styles.actions}>
            <Button
              variant="secondary"
              onClick={() => {
                const added = parseBannedLines(pasted);
                update({ banned: [...banned, ...added] });
                setPasted('');
                setPasting(false);
              }}
            >
              Add these terms
            </Button>
            <Button variant="secondary" onClick={() => setPasting(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div>
          <Button variant="secondary" onClick={() => setPasting(true)}>
            Paste many banned terms
          </Button>
        </div>
      )}
    </Part>
  );
}
