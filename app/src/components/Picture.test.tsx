import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderToString } from "react-dom/server";
import { LanguageProvider } from "../i18n/context";
import { Picture } from "./Picture";

const photo = {
  url: "https://cms.example.co.tz/uploads/harbour.jpg",
  alternativeText: "The harbour",
  width: 2400,
  height: 1600,
  srcset:
    "/img/160/t/uploads/harbour.jpg 160w, /img/480/t/uploads/harbour.jpg 480w, /img/640/t/uploads/harbour.jpg 640w, /img/800/t/uploads/harbour.jpg 800w",
};

describe("Picture", () => {
  it("gives a resized photo its srcset, its slot's sizes and its proportions at the width it falls back to, lazy below the first view", () => {
    const html = renderToString(<Picture image={photo} slot="card" lazy />);
    assert.match(html, /src="\/img\/640\/t\/uploads\/harbour.jpg"/);
    assert.ok(html.includes(`srcSet="${photo.srcset}"`) || html.includes(`srcset="${photo.srcset}"`), html);
    assert.match(html, /sizes="[^"]*calc\(100vw - 4rem - 2px\)"/);
    // An engine that reads the attributes but not max-width shows it as wide as what it fetched, not 2,400 px.
    assert.match(html, /width="640" height="427"/);
    assert.match(html, /loading="lazy"/);
    assert.doesNotMatch(html, /fetchPriority|fetchpriority/);
  });

  it("fetches a page's main picture first and never lazily", () => {
    const html = renderToString(<Picture image={photo} slot="article" main lazy />);
    assert.match(html, /fetchPriority="high"|fetchpriority="high"/);
    assert.doesNotMatch(html, /loading=/);
  });

  it("keeps the CMS's URL for what the server does not resize (SVG), with a size that holds its place", () => {
    const html = renderToString(
      <Picture image={{ url: "/static/hero.svg", alternativeText: "" }} slot="hero" fallbackSize={[320, 180]} />,
    );
    assert.match(html, /src="\/static\/hero.svg"/);
    assert.doesNotMatch(html, /srcset|srcSet|sizes=/);
    assert.match(html, /width="320" height="180"/);
  });

  it("shows a page's GIF as the server's still, inside a plain link to the animation that says its size in either language", () => {
    const gif = {
      url: "https://cms.example.co.tz/uploads/dance.gif",
      alternativeText: "Dancers",
      mime: "image/gif",
      size: 286.7,
      width: 480,
      height: 270,
      srcset: "/img/160/t/uploads/dance.gif 160w, /img/320/t/uploads/dance.gif 320w, /img/480/t/uploads/dance.gif 480w",
    };
    const html = renderToString(<Picture image={gif} slot="article" main />);
    assert.match(
      html,
      /<a class="animation-link" href="https:\/\/cms.example.co.tz\/uploads\/dance.gif"><img [^>]*src="\/img\/480\/t\/uploads\/dance.gif"[^>]*\/>/,
    );
    assert.match(html, /<span class="animation-label">Play the animation \(287 KB\)<\/span><\/a>$/);
    const sw = renderToString(
      <LanguageProvider lang="sw">
        <Picture image={gif} slot="article" />
      </LanguageProvider>,
    );
    assert.match(sw, />Cheza uhuishaji \(KB 287\)</);
    assert.match(
      renderToString(<Picture image={{ ...gif, size: undefined }} slot="article" />),
      />Play the animation<\/span>/,
    );
    // In a card the still stands for the story the card links to, whose page offers the animation.
    for (const slot of ["card", "thumb", "icon"] as const) {
      const card = renderToString(<Picture image={gif} slot={slot} lazy />);
      assert.doesNotMatch(card, /<a /, slot);
      assert.match(card, /src="\/img\/480\/t\/uploads\/dance.gif"/, slot);
    }
  });

  it("links no picture but a GIF the server makes a still of", () => {
    assert.doesNotMatch(
      renderToString(<Picture image={{ ...photo, mime: "image/jpeg", size: 900 }} slot="card" />),
      /<a /,
    );
    const untouched = renderToString(
      <Picture image={{ url: "https://elsewhere.example/dance.gif", mime: "image/gif", size: 300 }} slot="card" />,
    );
    assert.doesNotMatch(untouched, /<a /, "a GIF the server does not make is shown as it is");
  });
});
