/** A node of `EXPLAIN (ANALYZE, FORMAT JSON)`'s plan, with the members the plan suites read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Rows the plan's scans of `table` read, whether they kept them or not. */
export function rowsRead(node: PlanNode, table: string): number {
  const own =
    node['Node Type'].includes('Scan') && node['Relation Name'] === table
      ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) *
        node['Actual Loops']
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, table), 0);
}
