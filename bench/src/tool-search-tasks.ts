/**
 * Natural-language tasks for the tool-search retrieval benchmark, written against the captured
 * tool lists in tool-lists/ (each names the one tool, as `<server>_<tool>`, that does it). Phrased
 * as a user would ask, not copied from the tools' descriptions.
 */
/** A request in a person's words, and the one tool (`<server>_<tool>`) that does it. */
export interface ToolSearchTask {
  task: string;
  tool: string;
  /**
   * Other tools that do the task just as well (the same job on another server): finding any of
   * them counts as finding the right tool. Most tasks have none.
   */
  alternatives?: readonly string[];
  /** A hard task: the right tool has look-alikes (on its own server or another) that do not do it. */
  hard?: boolean;
}

/** A request in a person's words that no listed tool can do: the search should say nothing fits. */
export interface NoToolTask {
  task: string;
  /** Why no tool fits, and which tools look close but are not it. */
  why: string;
}

export const TOOL_SEARCH_TASKS: ToolSearchTask[] = [
  // filesystem
  { task: "show me what's in the config.yaml file", tool: "filesystem_read_text_file" },
  { task: "save this text into notes/todo.md", tool: "filesystem_write_file" },
  { task: "make a new folder called reports", tool: "filesystem_create_directory" },
  { task: "rename draft.txt to final.txt", tool: "filesystem_move_file" },
  { task: "which folders am I allowed to access on disk", tool: "filesystem_list_allowed_directories" },
  { task: "how big is each file in the downloads directory", tool: "filesystem_list_directory_with_sizes" },
  { task: "replace the word foo with bar in main.py, line-based edits", tool: "filesystem_edit_file" },
  // memory
  {
    task: "remember that Alice works at Acme as a new entity in the knowledge graph",
    tool: "memory_create_entities",
  },
  { task: "link Alice and Acme with an employed-by relation", tool: "memory_create_relations" },
  { task: "dump the entire knowledge graph", tool: "memory_read_graph" },
  { task: "add a new observation to the existing entity Bob", tool: "memory_add_observations" },
  // sequential thinking
  {
    task: "think through this hard problem step by step, revising thoughts as needed",
    tool: "sequential-thinking_sequentialthinking",
  },
  // github
  { task: "open a pull request from my feature branch into main", tool: "github_create_pull_request" },
  { task: "file a bug report issue in the repository", tool: "github_create_issue" },
  { task: "fork the repository into my account", tool: "github_fork_repository" },
  { task: "show the recent commits on the main branch", tool: "github_list_commits" },
  { task: "comment on issue 42 saying it is fixed", tool: "github_add_issue_comment" },
  { task: "merge pull request 17", tool: "github_merge_pull_request" },
  { task: "find GitHub users located in Berlin", tool: "github_search_users" },
  { task: "approve the PR with a review", tool: "github_create_pull_request_review" },
  { task: "create a new branch called release-2 in the repo", tool: "github_create_branch" },
  // playwright
  { task: "go to https://example.com in the browser", tool: "playwright_browser_navigate" },
  { task: "take a screenshot of the current browser page", tool: "playwright_browser_take_screenshot" },
  { task: "go back to the previous page in browser history", tool: "playwright_browser_navigate_back" },
  { task: "choose 'Large' in the size dropdown", tool: "playwright_browser_select_option" },
  { task: "upload resume.pdf through the page's file chooser", tool: "playwright_browser_file_upload" },
  // chrome devtools
  { task: "record a performance trace of the page load", tool: "chrome-devtools_performance_start_trace" },
  { task: "run a Lighthouse audit on this site", tool: "chrome-devtools_lighthouse_audit" },
  { task: "capture a heap snapshot to debug a memory leak", tool: "chrome-devtools_take_heapsnapshot" },
  { task: "emulate a slow 3G network and CPU throttling", tool: "chrome-devtools_emulate" },
  { task: "what CSS styles are applied to this element", tool: "chrome-devtools_get_css_styles" },
  // context7
  { task: "fetch up-to-date documentation for the React library", tool: "context7_query-docs" },
  { task: "find the Context7-compatible library ID for next.js", tool: "context7_resolve-library-id" },
  // notion
  { task: "add a comment to the Notion page", tool: "notion_API-create-a-comment" },
  { task: "create a new page in Notion under my projects page", tool: "notion_API-post-page" },
  { task: "list all the users in the Notion workspace", tool: "notion_API-get-users" },
  { task: "get the Notion page's content as markdown", tool: "notion_API-retrieve-page-markdown" },
  // firecrawl
  { task: "scrape the content of a single web page as markdown", tool: "firecrawl_firecrawl_scrape" },
  { task: "crawl an entire website and all its subpages", tool: "firecrawl_firecrawl_crawl" },
  { task: "how many Firecrawl credits do I have left", tool: "firecrawl_firecrawl_credit_usage" },
  { task: "set up monitoring to watch a web page for changes", tool: "firecrawl_firecrawl_monitor_create" },
  {
    task: "search academic research papers about transformers",
    tool: "firecrawl_firecrawl_research_search_papers",
  },
  // tavily
  {
    task: "do deep research on a topic and write a report with sources using Tavily",
    tool: "tavily_tavily_research",
  },
  { task: "extract the raw content from these URLs with tavily", tool: "tavily_tavily_extract" },
  // exa
  { task: "search the web with Exa for recent news about fusion", tool: "exa_web_search_exa" },
  // brave
  { task: "find pizza restaurants near me with Brave local search", tool: "brave-search_brave_local_search" },
  // mongodb
  { task: "insert these documents into the orders collection", tool: "mongodb_insert-many" },
  { task: "list the databases on the MongoDB cluster", tool: "mongodb_list-databases" },
  { task: "create an index on the email field", tool: "mongodb_create-index" },
  { task: "show the schema of the users collection", tool: "mongodb_collection-schema" },
  { task: "drop the test database entirely", tool: "mongodb_drop-database" },
  { task: "run an aggregation pipeline grouping sales by region", tool: "mongodb_aggregate" },
  { task: "count how many documents match status active", tool: "mongodb_count" },
  // sentry
  { task: "which Sentry organizations do I have access to", tool: "sentry_find_organizations" },
  { task: "ask Seer for a root cause analysis of this Sentry issue", tool: "sentry_analyze_issue_with_seer" },
  { task: "list the projects in my Sentry organization", tool: "sentry_find_projects" },
  // figma
  { task: "download the images used in this Figma design", tool: "figma_download_figma_images" },
  { task: "get the layout and styling data of a Figma file", tool: "figma_get_figma_data" },
  // kubernetes
  { task: "show the logs of the api pod", tool: "kubernetes_kubectl_logs" },
  { task: "scale the web deployment to 5 replicas", tool: "kubernetes_kubectl_scale" },
  { task: "install the nginx helm chart", tool: "kubernetes_install_helm_chart" },
  { task: "forward local port 8080 to the service", tool: "kubernetes_port_forward" },
  { task: "run a shell command inside a running container of a pod", tool: "kubernetes_exec_in_pod" },
  { task: "switch the kubectl context to the staging cluster", tool: "kubernetes_kubectl_context" },
  { task: "cordon and drain a node for maintenance", tool: "kubernetes_node_management" },
  // shopify dev
  {
    task: "look up the Shopify Admin GraphQL API docs for creating products",
    tool: "shopify-dev_search_docs_chunks",
  },
  { task: "check my Liquid theme files for errors", tool: "shopify-dev_validate_theme" },
  // everything
  { task: "add two numbers together", tool: "everything_get-sum" },
  { task: "print the server's environment variables", tool: "everything_get-env" },
];
