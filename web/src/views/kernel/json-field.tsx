import { useId } from 'react';

/** A text's JSON, or why it is not JSON. */
export type Parsed =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string };

export function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/** A labelled textarea for JSON that says, as it is typed, whether the text parses. */
export function JsonField({
  label,
  hint,
  value,
  onChange,
  parsed,
  rows = 12,
  name,
}: {
  label: string;
  hint?: string;
  value: string;
  onChange: (text: string) => void;
  parsed: Parsed;
  rows?: number;
  name: string;
}) {
  const id = useId();
  return (
    <div className="json-field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="muted hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <textarea
        id={id}
        name={name}
        rows={rows}
        spellCheck={false}
        value={value}
        aria-invalid={!parsed.ok}
        aria-describedby={`${hint ? `${id}-hint ` : ''}${id}-state`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-state`} className={parsed.ok ? 'muted json-state' : 'error json-state'}>
        {parsed.ok ? 'Valid JSON.' : `Not JSON: ${parsed.error}`}
      </p>
    </div>
  );
}
