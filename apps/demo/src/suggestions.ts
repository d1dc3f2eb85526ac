/** What the empty state offers to send: the scripted model's directives, or plain prompts. */
import type { DemoLang } from "./demo-strings.ts";

/** One clickable suggestion. */
export interface Suggestion {
  /** What it shows. */
  readonly title: string;
  /** What it sends. */
  readonly prompt: string;
}

// The scripted model (`@pi-kit/testing`) answers [[…]] directives; the slash commands come from
// the demo's extension. Each shows a different part of the elements.
const scripted: Record<DemoLang, readonly Suggestion[]> = {
  en: [
    { title: "Run a shell command", prompt: "[[bash ls -la]]" },
    {
      title: "Think, then answer",
      prompt: "[[think Plan the answer first]] [[text Done thinking.]]",
    },
    { title: "Stream a long answer", prompt: "[[slow 200ms x 20]]" },
    { title: "Ask me to confirm", prompt: "/demo-confirm" },
    { title: "Two questions at once", prompt: "/demo-two" },
    { title: "Show notifications", prompt: "/demo-notify" },
  ],
  "zh-CN": [
    { title: "运行一条命令", prompt: "[[bash ls -la]]" },
    { title: "先思考再回答", prompt: "[[think 先想好怎么回答]] [[text 想好了。]]" },
    { title: "流式输出长回答", prompt: "[[slow 200ms x 20]]" },
    { title: "请我确认", prompt: "/demo-confirm" },
    { title: "同时问两个问题", prompt: "/demo-two" },
    { title: "显示通知", prompt: "/demo-notify" },
  ],
};

const real: Record<DemoLang, readonly Suggestion[]> = {
  en: [
    {
      title: "Explain this project",
      prompt: "Explain what this project does and how it is laid out.",
    },
    {
      title: "Find TODOs",
      prompt: "Find the TODO and FIXME comments in this repository and summarise them.",
    },
    {
      title: "Review recent changes",
      prompt: "Review the most recent git commit and point out risks.",
    },
    { title: "Write a test", prompt: "Pick one untested function here and write a test for it." },
  ],
  "zh-CN": [
    { title: "介绍这个项目", prompt: "请说明这个项目做什么、代码如何组织。" },
    { title: "查找 TODO", prompt: "找出仓库中的 TODO 和 FIXME 注释并总结。" },
    { title: "审查最近的改动", prompt: "审查最近一次 git 提交，指出风险。" },
    { title: "写一个测试", prompt: "挑一个没有测试的函数，为它写一个测试。" },
  ],
};

/** The suggestions for a model and a language. */
export function suggestionsFor(scriptedModel: boolean, lang: DemoLang): readonly Suggestion[] {
  return (scriptedModel ? scripted : real)[lang];
}
