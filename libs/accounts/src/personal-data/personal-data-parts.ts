import { PersonalDataPart, StartupFailure } from '@app/core';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { AccountColumn, PersonalDataRepository } from './personal-data.repository';

/**
 * The parts in an order that erases each after those it names in `erasedAfter`, the order they were found in
 * otherwise; throws when two share a name or a section's, or when `erasedAfter` names an unknown part or
 * makes a cycle.
 */
export function orderParts(parts: readonly PersonalDataPart[]): PersonalDataPart[] {
  const byName = new Map<string, PersonalDataPart>();
  const sections = new Set<string>();
  for (const part of parts) {
    if (byName.has(part.name)) throw new StartupFailure(`two personal-data parts are named "${part.name}"`);
    byName.set(part.name, part);
    for (const { name } of part.sections) {
      if (sections.has(name)) throw new StartupFailure(`two personal-data parts give the export section "${name}"`);
      sections.add(name);
    }
  }
  const ordered: PersonalDataPart[] = [];
  const visiting = new Set<string>();
  const visit = (part: PersonalDataPart) => {
    if (ordered.includes(part)) return;
    if (visiting.has(part.name))
      throw new StartupFailure(`the personal-data part "${part.name}" is erased after itself`);
    visiting.add(part.name);
    for (const name of part.erasedAfter) {
      const before = byName.get(name);
      if (!before)
        throw new StartupFailure(
          `the personal-data part "${part.name}" is erased after "${name}", which no context provides`,
        );
      visit(before);
    }
    visiting.delete(part.name);
    ordered.push(part);
  };
  parts.forEach(visit);
  return ordered;
}

/**
 * Refuses a table that holds accounts' data (one of `columns`) which no part names: its rows would be left out
 * of every export and survive every erasure.
 */
export function assertCovered(parts: readonly PersonalDataPart[], columns: readonly AccountColumn[]): void {
  const named = new Set(parts.flatMap((part) => part.tables));
  const missing = columns.filter((column) => !named.has(column.table));
  if (missing.length === 0) return;
  const tables = [...new Set(missing.map(({ table }) => table))].map((table) => {
    const held = missing.filter((column) => column.table === table).map((column) => column.column);
    return `"${table}" (${held.join(', ')})`;
  });
  throw new StartupFailure(
    `no personal-data part names the table ${tables.join(', the table ')}, which holds accounts' data: add it ` +
      'to the `tables` of its context’s PersonalDataPart, which exports and erases it ' +
      '(docs/security.md#personal-data-export-and-erasure).',
  );
}

/**
 * Every `PersonalDataPart` provided in the app, found as `PeriodicJobsModule` finds its jobs, in their erasure
 * order. The app refuses to start when a table with a column that references an account is named by no part.
 */
@Injectable()
export class PersonalDataParts implements OnApplicationBootstrap {
  private parts: PersonalDataPart[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly repository: PersonalDataRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const found = new Set<PersonalDataPart>();
    for (const { instance } of this.discovery.getProviders()) {
      if (instance instanceof PersonalDataPart) found.add(instance);
    }
    this.parts = orderParts([...found]);
    assertCovered(this.parts, await this.repository.accountColumns());
  }

  /** The parts, each after those it is erased after. */
  get ordered(): readonly PersonalDataPart[] {
    return this.parts;
  }
}
