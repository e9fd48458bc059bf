// node --test cms/test/: the importer's reading of a locations CSV (many thousands of agents).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { csvLine, locationsFromCsv } from '../scripts/import.mjs';

const generator = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tools', 'locations.py');

test('a CSV line keeps quoted commas and doubled quotes', () => {
  assert.deepEqual(csvLine('1,"Mama ""Neema"", Shop",agent,,x'), ['1', 'Mama "Neema", Shop', 'agent', '', 'x']);
});

test('the generated CSV of many thousands becomes one document per place, its landmark in both languages', () => {
  const text = execFileSync('python3', [generator, 'csv', '20000'], { maxBuffer: 64 << 20 }).toString();
  const items = locationsFromCsv(`${text}20001,,agent,Arusha,Arusha City,,,,-3.3,36.6,,,,,\n`);
  assert.equal(items.size, 20000, 'the row without a name is skipped');
  const place = items.get(2);
  assert.equal(place.kind, 'agent');
  assert.ok(Array.isArray(place.services) && place.services.includes('cash-in'));
  assert.ok(Number.isFinite(place.latitude) && place.latitude < 0);
  assert.ok(place.landmarkSw && place.landmarkSw !== place.landmark, 'a Swahili landmark beside the English one');
});
