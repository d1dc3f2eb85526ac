export { A } from "./x/a.ts";
