TRUNCATE pets RESTART IDENTITY;
-- Built once over the whole catalogue, not grown pet by pet: inserting its many equal points one by one takes minutes.
DROP INDEX pets_location_idx;
TRUNCATE organizations CASCADE;
INSERT INTO accounts (id, email) SELECT n, 'lister' || n || '@example.com' FROM generate_series(1, 100) n;
INSERT INTO organizations (id, account_id, name) SELECT 'org_seed' || n, n, 'Shelter ' || n FROM generate_series(1, 100) n;
INSERT INTO pets (name, category_id, status, sex, age_group, size, tags, description, breed, latitude, longitude, created_at, updated_at, lister_account_id,
                  organization_id, good_with_children, good_with_dogs, good_with_cats, house_trained, spayed_neutered, special_needs,
                  coat, colors, external_id)
SELECT 'Pet ' || n, 1 + n % 7, (ARRAY['available','available','available','pending','sold'])[1 + n % 5],
       (ARRAY['male','female','unknown'])[1 + n % 3], (ARRAY['baby','young','adult','senior'])[1 + n % 4],
       (ARRAY['small','medium','large','xlarge'])[1 + n % 4],
       ARRAY[(ARRAY['calm','playful','loud','shy','indoor'])[1 + n % 5], 'tag' || (n % 4000)],
       'A friendly animal number ' || n || CASE WHEN n % 1000 = 0 THEN ' zebra' ELSE '' END, 'Breed ' || (n % 50),
       CASE WHEN n % 10 <> 0 THEN 35 + (n % 2000) * 0.01 END, CASE WHEN n % 10 <> 0 THEN -5 + (n % 3000) * 0.01 END,
       now() - (40000 - n) * interval '1 minute', now() - (40000 - n) * interval '1 minute', 1 + n % 100,
       'org_seed' || (1 + n % 100),
       CASE n % 3 WHEN 0 THEN true WHEN 1 THEN false END, CASE n % 4 WHEN 0 THEN true WHEN 1 THEN false END,
       CASE n % 5 WHEN 0 THEN true WHEN 1 THEN false END, CASE n % 3 WHEN 0 THEN true WHEN 1 THEN false END,
       CASE n % 3 WHEN 0 THEN true WHEN 1 THEN false END,
       CASE WHEN n % 50 = 0 THEN true WHEN n % 3 = 1 THEN false END,
       CASE WHEN n % 100 = 0 THEN 'hairless' ELSE (ARRAY['short','medium','long','wire','curly'])[1 + n % 5] END,
       ARRAY[(ARRAY['Black','White','Brown','Grey','Ginger'])[1 + n % 5], 'Shade' || (n % 4000)],
       'ext-' || n
  FROM generate_series(1, 40000) n;
CREATE INDEX pets_location_idx ON pets USING gist (ll_to_earth(latitude, longitude));
ANALYZE pets;
