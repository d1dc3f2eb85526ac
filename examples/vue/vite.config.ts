import vue from "@vitejs/plugin-vue";
import { defineConfig } from "vite";

export default defineConfig({
  // Relative asset paths: the tests serve the built app under /vue/.
  base: "./",
  // pi-* tags are custom elements, not Vue components.
  plugins: [
    vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith("pi-") } } }),
  ],
});
