TRUNCATE photos, pets RESTART IDENTITY;
INSERT INTO accounts (id, email) SELECT n, 'lister' || n || '@example.com' FROM generate_series(1, 100) n;
INSERT INTO pets (name, category_id, status, sex, age_group, size, tags, description, breed, latitude, longitude, created_at, updated_at, lister_account_id)
SELECT 'Pet ' || n, 1 + n % 7, (ARRAY['available','available','available','pending','sold'])[1 + n % 5],
       (ARRAY['male','female','unknown'])[1 + n % 3], (ARRAY['baby','young','adult','senior'])[1 + n % 4],
       (ARRAY['small','medium','large','xlarge'])[1 + n % 4],
       ARRAY[(ARRAY['calm','playful','loud','shy','indoor'])[1 + n % 5], 'tag' || (n % 4000)],
       'A friendly animal number ' || n || CASE WHEN n % 1000 = 0 THEN ' zebra' ELSE '' END, 'Breed ' || (n % 50),
       CASE WHEN n % 10 <> 0 THEN 35 + (n % 2000) * 0.01 END, CASE WHEN n % 10 <> 0 THEN -5 + (n % 3000) * 0.01 END,
       now() - (40000 - n) * interval '1 minute', now() - (40000 - n) * interval '1 minute', 1 + n % 100
  FROM generate_series(1, 40000) n;
ANALYZE pets;
