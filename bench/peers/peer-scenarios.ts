import type { HttpScenario } from '../support/scenario';
import { bearer, createPet } from '../support/requests';
import { SPREAD_REQUESTS } from '../support/spread';

/**
 * The peer's answers to what `list-20`, `pages-spread` and `create-pet` ask of the service, measured in
 * the same turns. Its pages are by `offset`, as a team's `find({ skip, take })` pages: `pages-spread`'s
 * places in the catalogue, reached by skipping the pets before them.
 */
export const PEER_SCENARIOS: HttpScenario[] = [
  {
    name: 'peer-list-20',
    title: 'Peer: GET /v1/pets?limit=20 (first page)',
    server: 'peer',
    peerOf: 'list-20',
    requests: ({ key }) => [{ method: 'GET', path: '/v1/pets?limit=20', headers: bearer(key) }],
  },
  {
    name: 'peer-pages-spread',
    title: 'Peer: GET /v1/pets?limit=20&offset=…, 1,000 pages across the catalogue',
    server: 'peer',
    peerOf: 'pages-spread',
    dealt: true,
    requests: ({ key, seedPets }) =>
      Array.from({ length: SPREAD_REQUESTS }, (_, i) => ({
        method: 'GET',
        path: `/v1/pets?limit=20&offset=${1 + Math.floor((seedPets * i) / SPREAD_REQUESTS)}`,
        headers: bearer(key),
      })),
  },
  {
    name: 'peer-create-pet',
    title: 'Peer: POST /v1/pets',
    server: 'peer',
    peerOf: 'create-pet',
    requests: ({ key }) => [createPet(key)],
  },
];
