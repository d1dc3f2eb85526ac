import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Relative asset paths: the tests serve the built app under /react/.
export default defineConfig({ base: "./", plugins: [react()] });
