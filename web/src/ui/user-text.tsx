import { balancedBidi } from './bidi.js';

/**
 * Text a person or a model wrote, shown inline: isolated, with its controls balanced, so whatever
 * direction it takes the interface's words around it keep their order (it wraps as `main` does).
 */
export function UserText({ text }: { text: string }) {
  return <bdi>{balancedBidi(text)}</bdi>;
}
