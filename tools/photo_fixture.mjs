// A newsroom's photos for the image budget (app/e2e/images.test.mjs, make
// bench): `content/` copied to a directory with a few hundred news stories
// per language, each with a camera-sized JPEG (2400×1600, about 1 MB) and
// the `formats` Strapi's upload plugin makes (large 1000, medium 750, small
// 500, thumbnail 245×156), generated here in Chromium's canvas (smooth colour
// fields and grain, so they compress as photos do, not as flat colour or pure
// noise). Serve it with
//
//   python3 tools/strapi_fixture.py --content <dir>/content --media <dir>/media
//
// `makeNewsroom(dir, { browser })` returns { content, media, photos } where
// `photos` maps each original's path (`/uploads/…`) to its size in bytes.
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const WIDTH = 2400;
const HEIGHT = 1600;
/** Strapi's default breakpoints: the longest side at most this. */
const FORMATS = { large: 1000, medium: 750, small: 500 };

/** JPEGs as base64: the original and its formats, for each seed. */
async function drawPhotos(browser, seeds) {
  const page = await browser.newPage();
  try {
    return await page.evaluate(
      ({ seeds, width, height, formats }) => {
        const jpeg = (canvas, quality) => canvas.toDataURL("image/jpeg", quality).split(",")[1];
        const scaled = (source, w, h) => {
          const canvas = document.createElement("canvas");
          canvas.width = w;
          canvas.height = h;
          const context = canvas.getContext("2d");
          context.imageSmoothingQuality = "high";
          context.drawImage(source, 0, 0, w, h);
          return canvas;
        };
        return seeds.map((seed) => {
          let state = (seed * 2654435761) >>> 0 || 1;
          const random = () => {
            state ^= state << 13;
            state ^= state >>> 17;
            state ^= state << 5;
            return (state >>> 0) / 4294967296;
          };
          // Colour fields at a quarter of the size, smoothed up: the scene.
          const small = document.createElement("canvas");
          small.width = width / 4;
          small.height = height / 4;
          const waves = Array.from({ length: 18 }, (_, i) => {
            const frequency = 1 + random() * (2 + i * 1.5);
            const angle = random() * 6.28;
            return { fx: frequency * Math.cos(angle), fy: frequency * Math.sin(angle), phase: random() * 6.28, amplitude: 60 / (1 + i * 0.35), channel: i % 3 };
          });
          const field = small.getContext("2d").createImageData(small.width, small.height);
          for (let y = 0; y < small.height; y++) {
            for (let x = 0; x < small.width; x++) {
              const u = (x / small.width) * 6.28;
              const v = (y / small.height) * 6.28;
              const colour = [110, 120, 100];
              for (const w of waves) {
                const t = Math.sin(w.fx * u + w.fy * v + w.phase) * w.amplitude;
                colour[w.channel] += t;
                colour[(w.channel + 1) % 3] += t * 0.4;
              }
              const i = (y * small.width + x) * 4;
              field.data.set([colour[0], colour[1], colour[2], 255], i);
            }
          }
          small.getContext("2d").putImageData(field, 0, 0);
          const photo = scaled(small, width, height);
          // Grain at full size: the sensor's noise.
          const context = photo.getContext("2d");
          const pixels = context.getImageData(0, 0, width, height);
          for (let i = 0; i < pixels.data.length; i += 4) {
            const grain = (random() - 0.5) * 14;
            pixels.data[i] += grain;
            pixels.data[i + 1] += grain;
            pixels.data[i + 2] += grain;
          }
          context.putImageData(pixels, 0, 0);
          const made = { original: jpeg(photo, 0.92) };
          for (const [name, side] of Object.entries(formats)) made[name] = jpeg(scaled(photo, side, Math.round((side * height) / width)), 0.8);
          made.thumbnail = jpeg(scaled(photo, 234, 156), 0.8);
          return made;
        });
      },
      { seeds, width: WIDTH, height: HEIGHT, formats: FORMATS },
    );
  } finally {
    await page.close();
  }
}

function entry(url, width, height, bytes) {
  return { url, mime: "image/jpeg", ext: ".jpg", width, height, size: Math.round(bytes / 10.24) / 100 };
}

/** `items` stories per language, photo `i % photos` for story `i`, newest first. */
export async function makeNewsroom(dir, { browser, items = 300, photos = 24 }) {
  const content = join(dir, "content");
  const media = join(dir, "media");
  cpSync(join(root, "content"), content, { recursive: true });
  mkdirSync(join(media, "uploads"), { recursive: true });
  symlinkSync(join(root, "assets"), join(media, "static"));
  const drawn = await drawPhotos(
    browser,
    Array.from({ length: photos }, (_, i) => i + 1),
  );
  const sizes = {};
  const uploads = drawn.map((made, i) => {
    const hash = `newsroom_${i}_${(0x9e3779b1 * (i + 1)).toString(16).slice(0, 8)}`;
    const write = (name, base64) => {
      const bytes = Buffer.from(base64, "base64");
      writeFileSync(join(media, "uploads", name), bytes);
      return bytes.length;
    };
    const size = write(`${hash}.jpg`, made.original);
    sizes[`/uploads/${hash}.jpg`] = size;
    const formats = {};
    for (const [name, side] of Object.entries(FORMATS)) {
      formats[name] = { name: `${name}_${hash}.jpg`, hash: `${name}_${hash}`, ...entry(`/uploads/${name}_${hash}.jpg`, side, Math.round((side * HEIGHT) / WIDTH), write(`${name}_${hash}.jpg`, made[name])) };
    }
    formats.thumbnail = { name: `thumbnail_${hash}.jpg`, hash: `thumbnail_${hash}`, ...entry(`/uploads/thumbnail_${hash}.jpg`, 234, 156, write(`thumbnail_${hash}.jpg`, made.thumbnail)) };
    return { id: 1000 + i, attributes: { name: `${hash}.jpg`, hash, provider: "local", updatedAt: "2026-11-01T08:00:00.000Z", formats, ...entry(`/uploads/${hash}.jpg`, WIDTH, HEIGHT, size) } };
  });
  for (const lang of ["en", "sw"]) {
    const stories = Array.from({ length: items }, (_, k) => {
      const id = k + 1;
      const day = new Date(Date.UTC(2026, 10, 20) - k * 86_400_000).toISOString().slice(0, 10);
      const upload = uploads[k % uploads.length];
      return {
        id,
        attributes: {
          title: lang === "en" ? `Newsroom story ${id}: network upgrade reaches another region` : `Habari ${id}: mtandao umeboreshwa katika mkoa mwingine`,
          slug: lang === "en" ? `newsroom-story-${id}` : `habari-${id}`,
          publishDate: day,
          summary: lang === "en" ? "Faster data and clearer calls for thousands more customers." : "Intaneti yenye kasi zaidi kwa maelfu ya wateja.",
          body: "The upgrade brings 4G to more towns.\n\nCustomers need no new SIM card.",
          category: "Network",
          image: { data: { id: upload.id, attributes: { ...upload.attributes, alternativeText: `Story ${id} photo` } } },
        },
      };
    });
    writeFileSync(join(content, lang, "collections", "news-updates.json"), JSON.stringify({ data: stories, meta: {} }));
  }
  return { content, media, photos: sizes };
}
