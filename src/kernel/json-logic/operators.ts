import { ARITHMETIC_OPERATORS } from './ops-arith.js';
import { COMPARE_OPERATORS } from './ops-compare.js';
import { DATA_OPERATORS } from './ops-data.js';
import { ERROR_OPERATORS } from './ops-error.js';
import { ITERATOR_OPERATORS } from './ops-iterate.js';
import { CONTROL_OPERATORS } from './ops-logic.js';
import { TEXT_OPERATORS } from './ops-text.js';
import type { OperatorCompiler } from './types.js';

/** Every operator the evaluator knows, by name (no prototype: `constructor` is not an operator). */
export const OPERATORS: Readonly<Record<string, OperatorCompiler | undefined>> = Object.freeze(
  Object.assign(
    Object.create(null) as Record<string, OperatorCompiler>,
    COMPARE_OPERATORS,
    CONTROL_OPERATORS,
    ARITHMETIC_OPERATORS,
    TEXT_OPERATORS,
    DATA_OPERATORS,
    ITERATOR_OPERATORS,
    ERROR_OPERATORS,
  ),
);
