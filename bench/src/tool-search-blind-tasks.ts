import type { NoToolTask, ToolSearchTask } from "./tool-search-tasks.ts";

/**
 * A fourth set of tasks for the tool-search retrieval benchmark, written blind: from the captured
 * tool lists in tool-lists/ only (each tool's name, description and input schema), by someone who
 * had not read the search's code, its thesaurus or the other sets' misses, and committed before
 * the search was ever run on it (issue 28). Phrased as a user would ask, in their own words rather
 * than the tools'. `hard` marks tasks whose right tool has look-alikes: the same job on another
 * server in other terms, or a near-duplicate on its own server. Where two servers' tools do the
 * job equally well, both count (`alternatives`).
 */
export const TOOL_SEARCH_BLIND_TASKS: ToolSearchTask[] = [
  // brave-search
  { task: "find coffee shops open near Union Square right now", tool: "brave-search_brave_local_search" },
  {
    task: "any well-rated pizza places close to my hotel in Lisbon?",
    tool: "brave-search_brave_local_search",
  },
  // web search and reading pages: several servers do it alike
  {
    task: "look up on the internet who founded the company Anthropic",
    tool: "brave-search_brave_web_search",
    alternatives: ["exa_web_search_exa", "tavily_tavily_search", "firecrawl_firecrawl_search"],
  },
  {
    task: "what happened in the news this week about the EU AI Act",
    tool: "tavily_tavily_search",
    alternatives: ["brave-search_brave_web_search", "exa_web_search_exa", "firecrawl_firecrawl_search"],
  },
  {
    task: "grab the full text of this blog post URL as clean markdown",
    tool: "exa_web_fetch_exa",
    alternatives: ["tavily_tavily_extract", "firecrawl_firecrawl_scrape"],
  },
  {
    task: "go through every page of the company blog and collect the articles",
    tool: "firecrawl_firecrawl_crawl",
    alternatives: ["tavily_tavily_crawl"],
  },
  {
    task: "dig into several sources and write me a thorough report on the causes of the 2008 financial crisis",
    tool: "tavily_tavily_research",
    alternatives: ["firecrawl_firecrawl_agent"],
  },
  // chrome-devtools
  {
    task: "record a video of the tab while I reproduce the bug",
    tool: "chrome-devtools_screencast_start",
  },
  { task: "that's enough, end the screen recording", tool: "chrome-devtools_screencast_stop" },
  {
    task: "profile how fast the page loads and tell me its core web vitals",
    tool: "chrome-devtools_performance_start_trace",
  },
  {
    task: "explain the LCP breakdown insight that the trace highlighted",
    tool: "chrome-devtools_performance_analyze_insight",
  },
  {
    task: "stop the profiling session and save what it recorded",
    tool: "chrome-devtools_performance_stop_trace",
  },
  {
    task: "pretend the visitor is in Tokyo on a phone with a slow connection",
    tool: "chrome-devtools_emulate",
  },
  {
    task: "which stylesheet rules end up applying to the submit button, inherited ones too",
    tool: "chrome-devtools_get_css_styles",
  },
  {
    task: "give me the full details of console message number 7",
    tool: "chrome-devtools_get_console_message",
  },
  {
    task: "which tabs are open in the Chrome DevTools browser right now",
    tool: "chrome-devtools_list_pages",
    hard: true,
  },
  {
    task: "run document.title in the page's JavaScript and give me the value",
    tool: "chrome-devtools_evaluate_script",
    alternatives: ["playwright_browser_evaluate"],
  },
  {
    task: "fill in name, email and the newsletter checkbox on the signup form in one go",
    tool: "chrome-devtools_fill_form",
    alternatives: ["playwright_browser_fill_form"],
  },
  {
    task: "move the mouse over the Products menu so its submenu opens",
    tool: "chrome-devtools_hover",
    alternatives: ["playwright_browser_hover"],
  },
  {
    task: "accept the 'are you sure you want to leave?' popup",
    tool: "playwright_browser_handle_dialog",
    alternatives: ["chrome-devtools_handle_dialog"],
  },
  {
    task: "hold until the words 'Order confirmed' appear on screen",
    tool: "playwright_browser_wait_for",
    alternatives: ["chrome-devtools_wait_for"],
  },
  {
    task: "grab a picture of the whole page, scrolled all the way down",
    tool: "chrome-devtools_take_screenshot",
    alternatives: ["playwright_browser_take_screenshot"],
  },
  {
    task: "drag the card from the To do column into the Done column",
    tool: "playwright_browser_drag",
    alternatives: ["chrome-devtools_drag"],
  },
  {
    task: "in Chrome DevTools, show the headers and body of request 12 from the network panel",
    tool: "chrome-devtools_get_network_request",
    hard: true,
  },
  {
    task: "type into whatever field currently has keyboard focus, then hit enter",
    tool: "chrome-devtools_type_text",
    hard: true,
  },
  // context7
  { task: "what ID does Context7 use for the Prisma ORM library", tool: "context7_resolve-library-id" },
  {
    task: "show me current code samples for setting up tRPC routers from its docs",
    tool: "context7_query-docs",
  },
  // everything (the MCP test server)
  { task: "repeat back exactly what I say", tool: "everything_echo" },
  { task: "compute the total of 1200 and 345", tool: "everything_get-sum" },
  { task: "give me the little MCP logo picture", tool: "everything_get-tiny-image" },
  { task: "compress this text into a gzip archive", tool: "everything_gzip-file-as-resource" },
  { task: "switch on the fake random log messages", tool: "everything_toggle-simulated-logging" },
  {
    task: "kick off a slow job that reports its progress over ten seconds",
    tool: "everything_trigger-long-running-operation",
  },
  { task: "hand me a few links to sample resources", tool: "everything_get-resource-links" },
  {
    task: "start pushing simulated updates for the resources I subscribed to",
    tool: "everything_toggle-subscriber-updates",
  },
  {
    task: "show an example message that carries annotation metadata",
    tool: "everything_get-annotated-message",
  },
  // figma
  {
    task: "pull the layout and component structure out of our design file ABC123",
    tool: "figma_get_figma_data",
  },
  { task: "export the icons from the mockup as PNGs at 2x", tool: "figma_download_figma_images" },
  // filesystem
  {
    task: "show me only the last 20 lines of server.log",
    tool: "filesystem_read_text_file",
    alternatives: ["filesystem_read_file"],
  },
  { task: "open the diagram image so you can look at it", tool: "filesystem_read_media_file" },
  {
    task: "load a.ts, b.ts and c.ts all at once so we can compare them",
    tool: "filesystem_read_multiple_files",
  },
  { task: "give me a nested view of everything under src", tool: "filesystem_directory_tree" },
  {
    task: "where are all the *.test.ts files in this project on disk",
    tool: "filesystem_search_files",
    hard: true,
  },
  { task: "when was invoice.docx last changed", tool: "filesystem_get_file_info" },
  { task: "what are the biggest files in my downloads folder", tool: "filesystem_list_directory_with_sizes" },
  { task: "make sure the folder out/build/tmp exists", tool: "filesystem_create_directory" },
  {
    task: "show me what replacing the port number in config.ts would change, without saving it",
    tool: "filesystem_edit_file",
    hard: true,
  },
  { task: "replace settings.json entirely with this new content", tool: "filesystem_write_file" },
  {
    task: "what's in the current folder",
    tool: "filesystem_list_directory",
    alternatives: ["filesystem_list_directory_with_sizes"],
  },
  // firecrawl
  {
    task: "list every URL on docs.example.com without downloading the pages",
    tool: "firecrawl_firecrawl_map",
    alternatives: ["tavily_tavily_map"],
  },
  { task: "how many Firecrawl credits do I have left this month", tool: "firecrawl_firecrawl_credit_usage" },
  {
    task: "is crawl job 123 done yet, and what did it collect",
    tool: "firecrawl_firecrawl_check_crawl_status",
    hard: true,
  },
  {
    task: "has the web research agent job I started finished",
    tool: "firecrawl_firecrawl_agent_status",
    hard: true,
  },
  {
    task: "keep an eye on the competitor's pricing page and tell me whenever it changes",
    tool: "firecrawl_firecrawl_monitor_create",
  },
  { task: "show all the page watchers I have set up", tool: "firecrawl_firecrawl_monitor_list" },
  { task: "pause the watcher with id m-42", tool: "firecrawl_firecrawl_monitor_update", hard: true },
  { task: "get rid of the pricing watcher for good", tool: "firecrawl_firecrawl_monitor_delete" },
  {
    task: "run the site watcher now instead of waiting for its schedule",
    tool: "firecrawl_firecrawl_monitor_run",
  },
  {
    task: "show the past runs of watcher m-7",
    tool: "firecrawl_firecrawl_monitor_checks",
    hard: true,
  },
  {
    task: "which pages were new or removed in run c-9 of watcher m-7",
    tool: "firecrawl_firecrawl_monitor_check",
    hard: true,
  },
  {
    task: "find scientific literature on CRISPR off-target effects",
    tool: "firecrawl_firecrawl_research_search_papers",
  },
  {
    task: "get the title, authors and abstract of arXiv 2401.01234",
    tool: "firecrawl_firecrawl_research_inspect_paper",
  },
  {
    task: "find other studies in the citation graph close to this one",
    tool: "firecrawl_firecrawl_research_related_papers",
  },
  {
    task: "what does that paper's body say about its sample size",
    tool: "firecrawl_firecrawl_research_read_paper",
  },
  { task: "turn this local PDF into markdown", tool: "firecrawl_firecrawl_parse" },
  {
    task: "rate the last web search as only partly useful and say which source helped",
    tool: "firecrawl_firecrawl_search_feedback",
    hard: true,
  },
  {
    task: "report that the scrape job came back with broken content",
    tool: "firecrawl_firecrawl_feedback",
    hard: true,
  },
  {
    task: "on the page I scraped, press its 'load more' button in a live session",
    tool: "firecrawl_firecrawl_interact",
    hard: true,
  },
  { task: "close the live browser session for scrape s-1", tool: "firecrawl_firecrawl_interact_stop" },
  {
    task: "which data providers cover company financial filings",
    tool: "firecrawl_firecrawl_find_tools",
  },
  {
    task: "pull the product name and price out of these three pages as JSON",
    tool: "firecrawl_firecrawl_scrape",
    alternatives: ["firecrawl_firecrawl_extract"],
  },
  // github
  { task: "commit an updated README straight to my repo", tool: "github_create_or_update_file" },
  { task: "push these three files together in one commit", tool: "github_push_files" },
  { task: "start a new private repo called scratch", tool: "github_create_repository" },
  { task: "close issue #12 in acme/web", tool: "github_update_issue", hard: true },
  { task: "show the open bugs in acme/web", tool: "github_list_issues" },
  { task: "find code that calls useSWR anywhere on GitHub", tool: "github_search_code" },
  { task: "details of issue 88 in facebook/react", tool: "github_get_issue" },
  { task: "what does pull request 301 change and who opened it", tool: "github_get_pull_request" },
  { task: "which files did PR 14 touch", tool: "github_get_pull_request_files" },
  { task: "are the CI checks green on PR 9", tool: "github_get_pull_request_status" },
  {
    task: "bring PR 9's branch up to date with main",
    tool: "github_update_pull_request_branch",
  },
  {
    task: "show the line-by-line review remarks left on PR 22",
    tool: "github_get_pull_request_comments",
    hard: true,
  },
  { task: "did anyone approve PR 22", tool: "github_get_pull_request_reviews", hard: true },
  {
    task: "find GitHub issues anywhere that mention a memory leak in webpack",
    tool: "github_search_issues",
    hard: true,
  },
  // kubernetes
  { task: "list the pods in the staging namespace", tool: "kubernetes_kubectl_get" },
  { task: "why is pod api-7f crash looping, show its events", tool: "kubernetes_kubectl_describe" },
  {
    task: "deploy this YAML to the cluster",
    tool: "kubernetes_kubectl_apply",
    alternatives: ["kubernetes_kubectl_create"],
  },
  { task: "get rid of the old-report job in the cluster", tool: "kubernetes_kubectl_delete" },
  { task: "run five copies of the web deployment", tool: "kubernetes_kubectl_scale" },
  { task: "undo the last release of the frontend deployment", tool: "kubernetes_kubectl_rollout" },
  { task: "point kubectl at the prod-eu cluster", tool: "kubernetes_kubectl_context" },
  {
    task: "change just the image tag on deployment api with a merge patch",
    tool: "kubernetes_kubectl_patch",
  },
  { task: "what fields does a CronJob spec have", tool: "kubernetes_explain_resource" },
  { task: "add the bitnami redis chart to the cluster", tool: "kubernetes_install_helm_chart" },
  {
    task: "bump the ingress-nginx release to the newest chart version",
    tool: "kubernetes_upgrade_helm_chart",
  },
  { task: "take node worker-3 out of service for maintenance", tool: "kubernetes_node_management" },
  { task: "make the postgres service reachable on my localhost:5432", tool: "kubernetes_port_forward" },
  { task: "stop that tunnel to the postgres service", tool: "kubernetes_stop_port_forward" },
  {
    task: "which resource kinds and verbs does this cluster's API offer",
    tool: "kubernetes_list_api_resources",
  },
  {
    task: "the control plane was upgraded and the credentials rotated: refresh the connection to the cluster",
    tool: "kubernetes_kubectl_reconnect",
  },
  { task: "tear down everything the Kubernetes tools created", tool: "kubernetes_cleanup" },
  { task: "run kubectl top nodes", tool: "kubernetes_kubectl_generic" },
  {
    task: "make a secret called db-pass from the literal password=hunter2",
    tool: "kubernetes_kubectl_create",
  },
  // memory
  { task: "forget everything about 'Old Project'", tool: "memory_delete_entities" },
  { task: "Bob doesn't like coffee anymore, remove that fact about him", tool: "memory_delete_observations" },
  { task: "Alice no longer manages Carol, drop that link", tool: "memory_delete_relations" },
  {
    task: "what do you remember about Kubernetes from our past conversations",
    tool: "memory_search_nodes",
    hard: true,
  },
  // mongodb
  { task: "connect to mongodb://localhost:27017", tool: "mongodb_connect" },
  { task: "which databases are on this Mongo server", tool: "mongodb_list-databases" },
  { task: "show users older than 30 from the users collection", tool: "mongodb_find" },
  {
    task: "group the orders by customer and sum their totals",
    tool: "mongodb_aggregate",
    hard: true,
  },
  { task: "what indexes exist on the orders collection", tool: "mongodb_collection-indexes" },
  { task: "infer the field types used in the products collection", tool: "mongodb_collection-schema" },
  {
    task: "how much disk space does the logs collection take",
    tool: "mongodb_collection-storage-size",
    hard: true,
  },
  { task: "usage statistics for the analytics database", tool: "mongodb_db-stats" },
  { task: "speed up lookups by email on the users collection", tool: "mongodb_create-index" },
  { task: "remove the index email_1", tool: "mongodb_drop-index" },
  { task: "delete every session document older than 30 days", tool: "mongodb_delete-many" },
  { task: "throw away the temp collection entirely", tool: "mongodb_drop-collection" },
  { task: "wipe the test database completely", tool: "mongodb_drop-database" },
  { task: "why is this Mongo query slow, show the winning plan", tool: "mongodb_explain" },
  { task: "save the query results out as EJSON", tool: "mongodb_export" },
  { task: "rename users_old to users_archive in Mongo", tool: "mongodb_rename-collection" },
  {
    task: "set status to active on every user whose email is verified",
    tool: "mongodb_update-many",
  },
  { task: "show the latest mongod server log entries", tool: "mongodb_mongodb-logs" },
  { task: "close my database connection", tool: "mongodb_disconnect" },
  { task: "which Mongo connections have I already opened", tool: "mongodb_list-connections" },
  {
    task: "what does MongoDB's official guidance say about choosing a shard key",
    tool: "mongodb_search-knowledge",
  },
  { task: "make a new collection named events", tool: "mongodb_create-collection" },
  // notion
  { task: "which bot user is my Notion integration token", tool: "notion_API-get-self" },
  { task: "list everyone in the Notion workspace", tool: "notion_API-get-users" },
  { task: "find the Notion page titled Roadmap", tool: "notion_API-post-search" },
  {
    task: "append a paragraph and a to-do item at the bottom of this Notion page",
    tool: "notion_API-patch-block-children",
    hard: true,
  },
  { task: "remove block b-1 from the Notion page", tool: "notion_API-delete-a-block" },
  { task: "set the Status property of the Notion page to Done", tool: "notion_API-patch-page" },
  { task: "put this Notion page under the Projects page", tool: "notion_API-move-page" },
  {
    task: "give me the Notion page's content as markdown",
    tool: "notion_API-retrieve-page-markdown",
  },
  {
    task: "rows of the tasks table in Notion where I am the assignee",
    tool: "notion_API-query-data-source",
  },
  {
    task: "add a Priority column to the Notion bug tracker table",
    tool: "notion_API-update-a-data-source",
    hard: true,
  },
  { task: "create a new Notion table for tracking bugs", tool: "notion_API-create-a-data-source" },
  { task: "show the discussion on this Notion page", tool: "notion_API-retrieve-a-comment" },
  {
    task: "which templates can I use for new rows in the tasks table",
    tool: "notion_API-list-data-source-templates",
  },
  { task: "who is Notion user u-123", tool: "notion_API-get-user" },
  // playwright
  { task: "run a custom Playwright snippet against the page", tool: "playwright_browser_run_code_unsafe" },
  {
    task: "is the word 'Checkout' anywhere in the page's accessibility tree",
    tool: "playwright_browser_find",
  },
  {
    task: "switch the site to dark mode so I can check the colours",
    tool: "playwright_browser_emulate_media",
    alternatives: ["chrome-devtools_emulate"],
  },
  {
    task: "drop report.csv onto the upload area as if dragged from the desktop",
    tool: "playwright_browser_drop",
    hard: true,
  },
  {
    task: "pick Canada in the country dropdown",
    tool: "playwright_browser_select_option",
    alternatives: ["chrome-devtools_fill"],
  },
  {
    task: "with Playwright, open a second tab",
    tool: "playwright_browser_tabs",
    hard: true,
  },
  // sentry
  { task: "which Sentry orgs can I see", tool: "sentry_find_organizations" },
  { task: "mark Sentry issue PROJ-123 as resolved", tool: "sentry_update_issue", hard: true },
  {
    task: "how many errors hit production in the last 24 hours",
    tool: "sentry_search_events",
  },
  {
    task: "work out the root cause of this crash and suggest a code fix",
    tool: "sentry_analyze_issue_with_seer",
  },
  {
    task: "list the unresolved Sentry problems affecting checkout",
    tool: "sentry_search_issues",
    hard: true,
  },
  { task: "open this Sentry link and show what it points to", tool: "sentry_get_sentry_resource" },
  {
    task: "is there a Sentry operation for managing alert rules that I can't see",
    tool: "sentry_search_sentry_tools",
  },
  // sequential-thinking
  {
    task: "let's reason through this design trade-off one thought at a time, revising as we go",
    tool: "sequential-thinking_sequentialthinking",
  },
  // shopify-dev
  {
    task: "I'm starting on Shopify's Admin GraphQL API, get set up before writing code",
    tool: "shopify-dev_learn_shopify_api",
  },
  { task: "search shopify.dev for how to build a discount function", tool: "shopify-dev_search_docs_chunks" },
  {
    task: "check this GraphQL mutation I wrote for the Shopify store",
    tool: "shopify-dev_validate",
    hard: true,
  },
  { task: "lint my Liquid theme files", tool: "shopify-dev_validate_theme" },
];

/**
 * Plausible requests that no tool in tool-lists/ can do, for the "nothing fits" measure: the
 * search should say so rather than load the nearest tools. Written blind, with the tasks above.
 */
export const TOOL_SEARCH_NO_TOOL_TASKS: NoToolTask[] = [
  { task: "email my manager that I'll be late today", why: "no mail tool" },
  { task: "book a table for two at 7pm at that restaurant", why: "local search finds places, books nothing" },
  { task: "send $50 to Alice on PayPal", why: "no payments tool" },
  { task: "put a meeting with Dana on my calendar for Friday at 3", why: "no calendar tool" },
  { task: "post a tweet announcing our release", why: "no social media tool" },
  { task: "send a Slack message to #general saying the deploy is done", why: "no chat tool" },
  { task: "play my Discover Weekly playlist", why: "no music tool" },
  { task: "turn off the living room lights", why: "no smart-home tool" },
  { task: "order a large pepperoni pizza for delivery", why: "no ordering tool" },
  { task: "open a Jira ticket for this bug", why: "GitHub issues look close; no Jira tool" },
  { task: "deploy the app to Vercel production", why: "Kubernetes and Helm look close; no Vercel tool" },
  { task: "convert this .mov video to mp4", why: "no media conversion tool" },
  { task: "refund the customer's last Stripe charge", why: "no payments tool" },
  {
    task: "run SELECT * FROM invoices on the Postgres database",
    why: "MongoDB tools look close; no SQL tool",
  },
  { task: "upload the backup archive to my S3 bucket", why: "no object storage tool" },
  { task: "text my mom on WhatsApp that I landed", why: "no messaging tool" },
  {
    task: "add a row to my budget spreadsheet in Google Sheets",
    why: "Notion data sources look close; no Sheets tool",
  },
  { task: "print this document on the office printer", why: "no printing tool" },
  { task: "trigger the nightly Jenkins pipeline", why: "no CI tool" },
  { task: "set an alarm for 6 am tomorrow", why: "no device tool" },
  { task: "create a Zoom meeting link for the standup", why: "no video meeting tool" },
  { task: "show my unread Gmail messages", why: "no mail tool" },
  { task: "rotate the AWS access keys of the deploy user", why: "no cloud IAM tool" },
  { task: "transcribe this voice memo into text", why: "no speech-to-text tool" },
];
