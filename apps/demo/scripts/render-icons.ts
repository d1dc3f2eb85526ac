/**
 * Renders the install icons' PNGs from their SVGs in Chromium (the sizes a web app manifest
 * needs). The PNGs are committed; run this after changing an SVG:
 * `node --import tsx scripts/render-icons.ts` in apps/demo.
 */
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";

const icons = new URL("../public/icons/", import.meta.url);

/** Each PNG: the SVG it is drawn from and its size in pixels. */
const renders = [
  { svg: "icon.svg", png: "icon-192.png", size: 192 },
  { svg: "icon.svg", png: "icon-512.png", size: 512 },
  { svg: "icon.svg", png: "apple-touch-icon.png", size: 180 },
  { svg: "icon-maskable.svg", png: "icon-maskable-512.png", size: 512 },
] as const;

const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...chromiumArgs] });
try {
  for (const { svg, png, size } of renders) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const source = readFileSync(new URL(svg, icons), "utf8");
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${source}`,
    );
    await page.screenshot({ path: new URL(png, icons).pathname, omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
