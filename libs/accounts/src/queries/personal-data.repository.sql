-- Written by `npm run sql` from libs/accounts/src/personal-data/personal-data.repository.ts: do not edit.

-- PersonalDataRepository.accountColumns
SELECT
  c.relname AS table,
  a.attname AS column
FROM
  pg_attribute a
  JOIN pg_class c ON c.oid = a.attrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE
  n.nspname = current_schema()
  AND c.relkind IN ('r', 'p')
  AND c.relname <> 'accounts'
  AND a.attnum > 0
  AND NOT a.attisdropped
  AND (
    a.attname = 'account_id'
    OR a.attname LIKE '%\_account\_id'
    OR EXISTS (
      SELECT
      FROM
        pg_constraint f
      WHERE
        f.contype = 'f'
        AND f.conrelid = c.oid
        AND f.confrelid = 'accounts'::regclass
        AND a.attnum = ANY (f.conkey)
    )
  )
ORDER BY
  c.relname,
  a.attname
