import type { ToolSearchTask } from "./tool-search-tasks.ts";

/**
 * A third set of tasks for the tool-search retrieval benchmark, written and committed before
 * the query thesaurus (`tool-search.ts`) and never run until that thesaurus was final: the one
 * set whose figures say how the ranking does on wording nobody tuned it to. (The held-out set's
 * misses were seen while the thesaurus was written.) Tools may repeat the other sets'; the
 * wording does not.
 */
export const TOOL_SEARCH_UNSEEN_TASKS: ToolSearchTask[] = [
  { task: "append a line to the end of todo.txt by editing it", tool: "filesystem_edit_file" },
  { task: "put 'hello world' in a new file called greeting.txt", tool: "filesystem_write_file" },
  { task: "relocate old.csv into the archive directory", tool: "filesystem_move_file" },
  { task: "tell me the size and permissions of notes.md", tool: "filesystem_get_file_info" },
  { task: "what's inside package.json", tool: "filesystem_read_text_file" },
  { task: "store a fact that Paris is the capital of France", tool: "memory_create_entities" },
  { task: "note down that Bob now prefers tea", tool: "memory_add_observations" },
  { task: "fetch the entities named Alice and Bob from memory", tool: "memory_open_nodes" },
  { task: "create a fresh git branch for the hotfix", tool: "github_create_branch" },
  { task: "list the pull requests that are still open", tool: "github_list_pull_requests" },
  { task: "read the README from the octocat/hello repo", tool: "github_get_file_contents" },
  { task: "find popular TypeScript repositories about MCP", tool: "github_search_repositories" },
  { task: "leave a code review on PR 5 requesting changes", tool: "github_create_pull_request_review" },
  { task: "type my email address into the login field", tool: "playwright_browser_type" },
  { task: "go back to the previous page in the browser", tool: "playwright_browser_navigate_back" },
  { task: "press the Enter key", tool: "playwright_browser_press_key" },
  { task: "run a Lighthouse check on the site for accessibility", tool: "chrome-devtools_lighthouse_audit" },
  { task: "read the browser console errors", tool: "chrome-devtools_list_console_messages" },
  { task: "look up the docs for React's useEffect hook", tool: "context7_query-docs" },
  { task: "scrape the contents of a single web page into markdown", tool: "firecrawl_firecrawl_scrape" },
  { task: "search the web for the latest Node.js release notes", tool: "brave-search_brave_web_search" },
  { task: "show the logs of the payment pod", tool: "kubernetes_kubectl_logs" },
  { task: "run the ls command inside a container in the cluster", tool: "kubernetes_exec_in_pod" },
  { task: "remove the cert-manager helm chart", tool: "kubernetes_uninstall_helm_chart" },
  { task: "list all collections in the shop database", tool: "mongodb_list-collections" },
  { task: "insert these five documents into the users collection", tool: "mongodb_insert-many" },
  { task: "count the orders placed this week", tool: "mongodb_count" },
  { task: "add a comment to the Notion page saying done", tool: "notion_API-create-a-comment" },
  { task: "create a new Notion page for the sprint retro", tool: "notion_API-post-page" },
  { task: "which Sentry projects does my organization have", tool: "sentry_find_projects" },
  { task: "show the environment variables of the test server", tool: "everything_get-env" },
  { task: "what is 17 plus 25", tool: "everything_get-sum" },
];
