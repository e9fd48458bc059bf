// node --test cms/test/: the importer's reading of the search's synonyms, the list the site falls back on.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { synonymsFromList } from '../scripts/import.mjs';

const list = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'src', 'search', 'synonyms.txt');

test('each group of the embedded list becomes one document, its comments left out', () => {
  const text = readFileSync(list, 'utf8');
  const items = synonymsFromList(text);
  const groups = text.split('\n').filter((line) => line.split('#')[0].includes('|'));
  assert.equal(items.size, groups.length);
  assert.deepEqual([...items.keys()], [...items.keys()].map((_, i) => i + 1), 'ids in the order of the list');
  assert.ok([...items.values()].some(({ words }) => words === 'bundle | bundles | kifurushi | vifurushi | bando | package'));
  assert.ok([...items.values()].every(({ words }) => !words.includes('#') && words.split(' | ').length >= 2));
});

test('a line of one entry, a blank line and a comment are left out; spacing is made even', () => {
  const items = synonymsFromList('# a note | not read\n\nalone\n  stall |kibanda|  vibanda  # shops\r\n| |\n');
  assert.deepEqual([...items.entries()], [[1, { words: 'stall | kibanda | vibanda' }]]);
});
