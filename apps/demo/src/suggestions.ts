/**
 * What the empty state offers to send, in natural language. With the scripted model each prompt
 * stands for a scripted behaviour (`scriptedPrompts`, which the demo's model server is given), so
 * the conversation's title and the user's bubble read as text, not as directives.
 */
import type { DemoLang } from "./demo-strings.ts";

/** One clickable suggestion. */
export interface Suggestion {
  /** What it shows. */
  readonly title: string;
  /** What it sends. */
  readonly prompt: string;
}

/** A suggestion for the scripted model: its prompt stands for `script` (directives of `@pi-kit/testing`). */
interface ScriptedSuggestion extends Suggestion {
  readonly script?: string;
}

const STORY_EN =
  "Once upon a time a small agent lived in a terminal. Every morning it read the files, ran the tests and wrote down what it had learned. One day a user asked it for a story, so it took its time and told this one, word by word, until the end.";
const STORY_ZH =
  "从前， 终端里 住着 一个 小小的 智能体。 每天 早上， 它 读一读 文件， 跑一跑 测试， 再把 学到的 东西 记下来。 有一天， 用户 请它 讲个 故事， 于是 它 慢慢地 一个词 一个词 地 讲完了 这一个。";

// The note the scripted "write a file" writes (`\n` is a line break in a directive's argument).
const NOTE_EN =
  "# Notes\\n\\npi wrote this file. Undo the turn in the session panel to remove it.\\n";
const NOTE_ZH = "# 笔记\\n\\npi 写了这个文件。在会话面板中撤销这一轮即可删除它。\\n";

// Each shows a different part of the elements; the slash commands come from the demo's extension.
const scripted: Record<DemoLang, readonly ScriptedSuggestion[]> = {
  en: [
    {
      title: "Run a shell command",
      prompt: "List the files in the workspace",
      script: "[[bash ls -la]]",
    },
    {
      title: "Think, then answer",
      prompt: "Think it over before you answer",
      script:
        "[[think Plan the answer first: what was asked, then what to say.]] [[text Done thinking: here is my answer.]]",
    },
    {
      title: "Stream a long answer",
      prompt: "Write a long story slowly",
      script: `[[slow 120ms x 0]] [[text ${STORY_EN}]]`,
    },
    {
      title: "Write a file",
      prompt: "Write a short note to notes.md",
      script: `[[write notes.md ${NOTE_EN}]]`,
    },
    { title: "Ask me to confirm", prompt: "/demo-confirm" },
    { title: "Two questions at once", prompt: "/demo-two" },
    { title: "Show notifications", prompt: "/demo-notify" },
  ],
  "zh-CN": [
    { title: "运行一条命令", prompt: "列出工作区里的文件", script: "[[bash ls -la]]" },
    {
      title: "先思考再回答",
      prompt: "先想一想再回答",
      script: "[[think 先想好怎么回答：问的是什么，再想说什么。]] [[text 想好了，这是我的回答。]]",
    },
    {
      title: "流式输出长回答",
      prompt: "慢慢地写一个长故事",
      script: `[[slow 120ms x 0]] [[text ${STORY_ZH}]]`,
    },
    {
      title: "写一个文件",
      prompt: "在 notes.md 里写一段笔记",
      script: `[[write notes.md ${NOTE_ZH}]]`,
    },
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

/** The scripted model's answers to the suggested prompts: each prompt, every language, to its directives. */
export function scriptedPrompts(): Readonly<Record<string, string>> {
  const prompts: Record<string, string> = {};
  for (const list of Object.values(scripted)) {
    for (const { prompt, script } of list) if (script !== undefined) prompts[prompt] = script;
  }
  return prompts;
}
