/**
 * The shell's icons, from Lucide (`lucide-static`: each icon is an SVG string, and only the ones
 * imported here are bundled). They are constants of this module, never user input.
 */
import { html, type TemplateResult } from "lit";
import { unsafeHTML } from "lit/directives/unsafe-html.js";
import {
  Menu,
  Moon,
  PanelRight,
  RotateCw,
  Smartphone,
  Sun,
  TriangleAlert,
  WifiOff,
  X,
} from "lucide-static";

const svg = (source: string): TemplateResult =>
  html`<span class="icon" aria-hidden="true">${unsafeHTML(source)}</span>`;

/** The icons by what they mean in the shell. */
export const icons = {
  menu: svg(Menu),
  dark: svg(Moon),
  light: svg(Sun),
  panel: svg(PanelRight),
  reload: svg(RotateCw),
  warning: svg(TriangleAlert),
  offline: svg(WifiOff),
  close: svg(X),
  phone: svg(Smartphone),
} as const;
