-- Written by `npm run sql` from libs/orders/src/inventory.repository.ts: do not edit.

-- InventoryRepository.read
SELECT
  sum(available) AS available,
  sum(pending) AS pending,
  sum(sold) AS sold
FROM
  pet_status_counts
