/**
 * Annotations collected for one instance location while `unevaluatedProperties`/`unevaluatedItems`
 * need them: which properties and array items some keyword has already evaluated.
 */
export class Marks {
  private props: Set<string> | null = null;
  private allProps = false;
  /** Items [0, prefix) are evaluated. */
  private prefix = 0;
  private itemSet: Set<number> | null = null;
  private allItems = false;

  /** Marks one property as evaluated. */
  prop(name: string): void {
    if (this.allProps) return;
    this.props ??= new Set();
    this.props.add(name);
  }

  /** Marks every property as evaluated. */
  everyProp(): void {
    this.allProps = true;
    this.props = null;
  }

  /** Whether a property was evaluated. */
  hasProp(name: string): boolean {
    return this.allProps || this.props?.has(name) === true;
  }

  /** Marks items [0, count) as evaluated. */
  itemsBelow(count: number): void {
    if (count > this.prefix) this.prefix = count;
  }

  /** Marks one item as evaluated. */
  item(index: number): void {
    if (this.allItems || index < this.prefix) return;
    this.itemSet ??= new Set();
    this.itemSet.add(index);
  }

  /** Marks every item as evaluated. */
  everyItem(): void {
    this.allItems = true;
    this.itemSet = null;
  }

  /** Whether an item was evaluated. */
  hasItem(index: number): boolean {
    return this.allItems || index < this.prefix || this.itemSet?.has(index) === true;
  }

  /** How many entries a {@link merge} of these walks (for the step budget). */
  get size(): number {
    return 1 + (this.props?.size ?? 0) + (this.itemSet?.size ?? 0);
  }

  /** Adds another location's annotations (from a subschema that passed) to these. */
  merge(other: Marks): void {
    if (other.allProps) this.everyProp();
    else if (other.props !== null) for (const name of other.props) this.prop(name);
    if (other.allItems) this.everyItem();
    else {
      this.itemsBelow(other.prefix);
      if (other.itemSet !== null) for (const index of other.itemSet) this.item(index);
    }
  }
}
