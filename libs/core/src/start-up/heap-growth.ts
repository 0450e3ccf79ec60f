import { setFlagsFromString } from 'node:v8';

/**
 * Bounds how far V8 lets the old generation grow between full collections (`HEAP_GROWTH_PERCENT`, ADR 0065).
 * V8 reads the bound at each full collection, so setting it as the process starts holds for its whole life.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
