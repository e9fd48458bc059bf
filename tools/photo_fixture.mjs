// A newsroom's photos for the image budget (app/e2e/images.test.mjs, make
// bench): `content/` copied to a directory with a few hundred news stories
// per language, each with one of the uploads below, made by ImageMagick (and
// netpbm) from
// the photographs of Debian's plasma-workspace-wallpapers (installed by
// `make deps` and CI, not committed) in the shapes editors upload, with the
// `formats` Strapi's upload plugin makes beside each (large, medium and small
// at most 1000, 750 and 500 px on the longest side, thumbnail within
// 245×156; none for a file smaller than one, none for a GIF). Serve it with
//
//   python3 tools/strapi_fixture.py --content <dir>/content --media <dir>/media
//
// `makeNewsroom(dir)` returns { content, media, photos, uploads } where
// `photos` maps each original's path (`/uploads/…`) to its size in bytes and
// `uploads` lists each upload's shape, the id of its first story, its path
// and its width and height as shown (after the EXIF orientation). The
// made files are kept in the system's temporary directory between runs.
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, renameSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const WALLPAPERS = "/usr/share/wallpapers";
/** Strapi's default breakpoints: the longest side at most this. */
const FORMATS = { large: 1000, medium: 750, small: 500 };
const THUMBNAIL = [245, 156];

/**
 * What editors upload, in story order (story `k + 1` gets upload `k % length`):
 * the wallpaper it is made from, ImageMagick's arguments between source and
 * output, and the output's extension.
 */
export const UPLOADS = [
  { shape: "photograph, 2560×1600 JPEG", from: "Autumn/contents/images/2560x1600.jpg", ext: "jpg" },
  { shape: "phone portrait (4032×3024 stored, EXIF orientation 6)", from: "Path/contents/images/2560x1600.jpg", args: ["-resize", "4032x3024!", "-quality", "90", "-orient", "RightTop"], ext: "jpg" },
  { shape: "photograph, 2560×1600 JPEG", from: "BytheWater/contents/images/2560x1600.jpg", ext: "jpg" },
  { shape: "photograph, 5120×2880 JPEG of 4.6 MB", from: "Volna/contents/images/5120x2880.jpg", ext: "jpg" },
  { shape: "animated GIF", gif: true, from: "EveningGlow/contents/images/2560x1600.jpg", ext: "gif" },
  { shape: "CMYK JPEG", from: "ColorfulCups/contents/images/2560x1600.jpg", args: ["-colorspace", "CMYK", "-quality", "90"], ext: "jpg" },
  { shape: "photograph, 2560×1600 JPEG", from: "EveningGlow/contents/images/2560x1600.jpg", ext: "jpg" },
  { shape: "PNG with transparency", from: "FallenLeaf/contents/images/2560x1600.jpg", args: ["-resize", "1600x1000", "-alpha", "set", "-background", "none", "-vignette", "0x120"], ext: "png" },
  { shape: "progressive JPEG", from: "OneStandsOut/contents/images/2560x1600.jpg", args: ["-interlace", "Plane", "-quality", "92"], ext: "jpg" },
  { shape: "48-megapixel phone photo (8000×6000)", from: "SafeLanding/contents/images/5120x2880.jpg", args: ["-resize", "8000x6000^", "-gravity", "center", "-extent", "8000x6000", "-quality", "88"], ext: "jpg" },
  { shape: "grayscale JPEG", from: "Grey/contents/images/2560x1600.jpg", ext: "jpg" },
  { shape: "WebP", from: "Kite/contents/images/2560x1600.jpg", args: ["-quality", "85"], ext: "webp" },
  { shape: "180×120 JPEG (never enlarged)", from: "ColdRipple/contents/images/2560x1600.jpg", args: ["-resize", "180x120!"], ext: "jpg" },
  { shape: "panorama, 6000×1200 JPEG", from: "ColdRipple/contents/images/2560x1600.jpg", args: ["-resize", "6000x1200^", "-gravity", "center", "-extent", "6000x1200", "-quality", "88"], ext: "jpg" },
  { shape: "large PNG, 5120×2880", from: "Kay/contents/images/5120x2880.png", ext: "png" },
  { shape: "photograph, 2560×1600 JPEG", from: "summer_1am/contents/images/2560x1600.jpg", ext: "jpg" },
  { shape: "photograph, 5120×2880 JPEG", from: "Honeywave/contents/images/5120x2880.jpg", ext: "jpg" },
  { shape: "photograph, 2560×1600 JPEG", from: "DarkestHour/contents/images/2560x1600.jpg", ext: "jpg" },
  // ImageMagick's policy (Debian's) refuses a pixel cache this large: netpbm scales it streaming.
  { shape: "100-megapixel photo (12000×8400)", from: "Shell/contents/images/5120x2880.jpg", scale: [12000, 8400], ext: "jpg" },
];

const MIME = { jpg: "image/jpeg", png: "image/png", webp: "image/webp", gif: "image/gif" };

/** ImageMagick's warnings (the wallpapers' XMP) are dropped; a failure throws with them. */
function magick(...args) {
  execFileSync("convert", args, { stdio: ["ignore", "ignore", "pipe"] });
}

/** Width and height as shown: after the EXIF orientation. */
function dimensions(file) {
  const [width, height, orientation] = execFileSync("identify", ["-format", "%w %h %[orientation]\\n", file], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).split("\n")[0].split(" ");
  const turned = ["RightTop", "LeftBottom", "LeftTop", "RightBottom"].includes(orientation);
  return turned ? [Number(height), Number(width)] : [Number(width), Number(height)];
}

/** Makes upload `i` and its formats in `dir` (once); returns its Strapi entity's attributes. */
function makeUpload(dir, upload, i) {
  const source = join(WALLPAPERS, upload.from);
  if (!existsSync(source)) throw new Error(`${source} is missing: install plasma-workspace-wallpapers (make deps)`);
  const hash = `newsroom_${i}_${(0x9e3779b1 * (i + 1)).toString(16).slice(0, 8)}`;
  const file = `${hash}.${upload.ext}`;
  const path = join(dir, file);
  if (!existsSync(path)) {
    const partial = `${path}.part.${upload.ext}`;
    if (upload.gif) {
      // Eight frames panning across the photograph, 480×300: what a newsroom's banner GIF weighs.
      const frames = Array.from({ length: 8 }, (_, f) => ["(", source, "-resize", "960x600", "-crop", `480x300+${f * 60}+${f * 35}`, "+repage", ")"]).flat();
      magick("-delay", "25", ...frames, "-loop", "0", "-layers", "Optimize", partial);
    } else if (upload.scale) {
      const [w, h] = upload.scale;
      execFileSync("sh", ["-c", `jpegtopnm "$0" 2>/dev/null | pamscale -width ${w} -height ${h} | pnmtojpeg -quality 85 > "$1"`, source, partial], { stdio: ["ignore", "ignore", "pipe"] });
    } else if (upload.args) {
      magick(source, ...upload.args, partial);
    } else {
      copyFileSync(source, partial);
    }
    renameSync(partial, path);
  }
  const [width, height] = dimensions(path);
  const entity = (url, name, w, h, bytes) => ({ name, hash: name.replace(/\.[a-z]+$/, ""), ext: `.${upload.ext}`, mime: MIME[upload.ext], url, width: w, height: h, size: Math.round(bytes / 10.24) / 100 });
  const formats = {};
  if (!upload.gif) {
    const sizes = [...Object.entries(FORMATS).map(([name, side]) => [name, side, side]), ["thumbnail", ...THUMBNAIL]];
    for (const [name, maxWidth, maxHeight] of sizes) {
      if (name !== "thumbnail" && Math.max(width, height) <= maxWidth) continue;
      const made = `${name}_${file}`;
      if (!existsSync(join(dir, made))) magick(path, "-auto-orient", "-resize", `${maxWidth}x${maxHeight}>`, "-quality", "80", join(dir, made));
      const [w, h] = dimensions(join(dir, made));
      formats[name] = entity(`/uploads/${made}`, made, w, h, statSync(join(dir, made)).size);
    }
  }
  return { name: file, hash, provider: "local", updatedAt: "2026-11-01T08:00:00.000Z", formats, ...entity(`/uploads/${file}`, file, width, height, statSync(path).size) };
}

/** `items` stories per language, upload `k % UPLOADS.length` for story `k + 1`, newest first. */
export async function makeNewsroom(dir, { items = 300 } = {}) {
  const content = join(dir, "content");
  const media = join(dir, "media");
  const made = join(tmpdir(), "photo-fixture-v2");
  mkdirSync(made, { recursive: true });
  cpSync(join(root, "content"), content, { recursive: true });
  mkdirSync(media, { recursive: true });
  symlinkSync(join(root, "assets"), join(media, "static"));
  symlinkSync(made, join(media, "uploads"));
  const uploads = UPLOADS.map((upload, i) => ({ id: 1000 + i, attributes: makeUpload(made, upload, i) }));
  const photos = Object.fromEntries(readdirSync(made).filter((name) => name.startsWith("newsroom_")).map((name) => [`/uploads/${name}`, statSync(join(made, name)).size]));
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
  const shown = (i) => ({ path: uploads[i].attributes.url, width: uploads[i].attributes.width, height: uploads[i].attributes.height });
  return { content, media, photos, uploads: UPLOADS.map((upload, i) => ({ ...upload, story: i + 1, ...shown(i) })) };
}
