import type { NoToolTask, ToolSearchTask } from "./tool-search-tasks.ts";

/**
 * A fresh, held-out tuning set for the tool-search benchmark: requests as a user of an agent would
 * type them, each naming the one tool (`<server>_<tool>`) that does it. Written blind by a helper
 * that read only the captured tool lists in bench/tool-lists/ and the two task interfaces, never
 * the search, its thesaurus, the other task sets or any results, and before the search was ever
 * run on these tasks. Catch-all tools (kubernetes_kubectl_generic, sentry_execute_sentry_tool,
 * playwright_browser_run_code_unsafe, firecrawl_firecrawl_interact) are not listed as
 * alternatives for jobs that a dedicated tool does, only where they are the natural tool.
 */
export const TOOL_SEARCH_FRESH_TASKS: ToolSearchTask[] = [
  // kubernetes
  {
    task: "which pods keep restarting in the staging namespace?",
    tool: "kubernetes_kubectl_get",
  },
  {
    task: "tail the last 200 lines from the checkout-api pod",
    tool: "kubernetes_kubectl_logs",
  },
  {
    task: "the payments container crashed and came back, show me what it printed before it died",
    tool: "kubernetes_kubectl_logs",
  },
  {
    task: "why is my pod stuck in Pending? I want to see its events and conditions",
    tool: "kubernetes_kubectl_describe",
  },
  {
    task: "bump the web frontend to 6 replicas, traffic is spiking",
    tool: "kubernetes_kubectl_scale",
  },
  {
    task: "last deploy of orders-service broke everything, go back to the previous version",
    tool: "kubernetes_kubectl_rollout",
    hard: true,
  },
  {
    task: "restart the ingress-nginx deployment so it picks up the new config map",
    tool: "kubernetes_kubectl_rollout",
  },
  {
    task: "here's a yaml for a new CronJob, push it to the cluster",
    tool: "kubernetes_kubectl_apply",
    alternatives: ["kubernetes_kubectl_create"],
  },
  {
    task: "make a secret called db-creds with user=admin and password=hunter2 in namespace prod",
    tool: "kubernetes_kubectl_create",
  },
  {
    task: "get rid of all the completed jobs labelled batch=nightly",
    tool: "kubernetes_kubectl_delete",
  },
  {
    task: "change the memory limit on the redis statefulset to 2Gi without re-applying the whole manifest",
    tool: "kubernetes_kubectl_patch",
    hard: true,
  },
  {
    task: "am I pointed at the prod cluster or my local kind cluster right now?",
    tool: "kubernetes_kubectl_context",
  },
  {
    task: "what fields can go under spec.template.spec.affinity in a deployment",
    tool: "kubernetes_explain_resource",
  },
  {
    task: "install the bitnami postgresql chart into a new namespace called db",
    tool: "kubernetes_install_helm_chart",
  },
  {
    task: "upgrade our prometheus helm release with the new values file monitoring/values-v2.yaml",
    tool: "kubernetes_upgrade_helm_chart",
    hard: true,
  },
  {
    task: "take node ip-10-0-3-17 out of service for maintenance and move its workloads off",
    tool: "kubernetes_node_management",
  },
  {
    task: "I need to reach the grafana service on localhost:3000 from my laptop",
    tool: "kubernetes_port_forward",
  },
  {
    task: "run `env` inside the api-7d9f pod and show me the output",
    tool: "kubernetes_exec_in_pod",
  },
  {
    task: "does this cluster have the cert-manager CRDs installed? list what resource kinds exist",
    tool: "kubernetes_list_api_resources",
    alternatives: ["kubernetes_kubectl_get"],
  },
  {
    task: "show cpu and memory usage per pod, kubectl top style",
    tool: "kubernetes_kubectl_generic",
  },
  {
    task: "cluster got upgraded and now every call times out, refresh the connection to the API server",
    tool: "kubernetes_kubectl_reconnect",
  },

  // mongodb
  {
    task: "connect to mongodb://localhost:27017 so we can poke at the data",
    tool: "mongodb_connect",
  },
  {
    task: "what databases are on this mongo server?",
    tool: "mongodb_list-databases",
  },
  {
    task: "list the collections in the analytics db",
    tool: "mongodb_list-collections",
  },
  {
    task: "find users whose email ends with @acme.io, only return name and email, newest first",
    tool: "mongodb_find",
  },
  {
    task: "how many orders have status 'refunded'?",
    tool: "mongodb_count",
    alternatives: ["mongodb_aggregate"],
  },
  {
    task: "group the sales collection by region and sum the revenue for 2024",
    tool: "mongodb_aggregate",
    hard: true,
  },
  {
    task: "what fields do documents in the events collection usually have, and their types?",
    tool: "mongodb_collection-schema",
  },
  {
    task: "which indexes exist on the sessions collection",
    tool: "mongodb_collection-indexes",
  },
  {
    task: "queries on orders by customerId are slow, add an index on that field",
    tool: "mongodb_create-index",
  },
  {
    task: "is my query on products using an index or doing a full collection scan?",
    tool: "mongodb_explain",
  },
  {
    task: "mark every ticket older than 90 days as archived: true",
    tool: "mongodb_update-many",
  },
  {
    task: "wipe all the test documents where env is 'ci' from the logs collection",
    tool: "mongodb_delete-many",
    hard: true,
  },
  {
    task: "seed the products collection with these 12 sample items",
    tool: "mongodb_insert-many",
  },
  {
    task: "the tmp_import collection is junk, drop it",
    tool: "mongodb_drop-collection",
    hard: true,
  },
  {
    task: "rename collection `usrs` to `users`, I made a typo",
    tool: "mongodb_rename-collection",
  },
  {
    task: "how much disk space is the audit_trail collection taking",
    tool: "mongodb_collection-storage-size",
  },
  {
    task: "dump the results of the active-customers query to a json file I can hand to finance",
    tool: "mongodb_export",
  },
  {
    task: "show me recent server log entries from mongod, something weird happened around startup",
    tool: "mongodb_mongodb-logs",
  },
  {
    task: "recommended way to model a one-to-many relationship in MongoDB? check the official docs",
    tool: "mongodb_search-knowledge",
  },
  {
    task: "overall stats for the shop database: object count, data size, index size",
    tool: "mongodb_db-stats",
  },
  {
    task: "run $currentOp at the database level to see what operations are running",
    tool: "mongodb_aggregate-db",
    hard: true,
  },

  // firecrawl
  {
    task: "grab the pricing page at https://linear.app/pricing as markdown",
    tool: "firecrawl_firecrawl_scrape",
    alternatives: ["exa_web_fetch_exa", "tavily_tavily_extract"],
  },
  {
    task: "list every URL on docs.stripe.com that mentions webhooks, I don't need the content yet",
    tool: "firecrawl_firecrawl_map",
    alternatives: ["tavily_tavily_map"],
    hard: true,
  },
  {
    task: "pull the content of all blog posts under example.com/blog, max 50 pages",
    tool: "firecrawl_firecrawl_crawl",
    alternatives: ["tavily_tavily_crawl"],
  },
  {
    task: "is crawl job 8f2c-41aa done yet?",
    tool: "firecrawl_firecrawl_check_crawl_status",
  },
  {
    task: "turn this local contract.pdf into markdown so I can read the termination clause",
    tool: "firecrawl_firecrawl_parse",
  },
  {
    task: "watch our competitor's changelog page and email me when something new shows up each morning",
    tool: "firecrawl_firecrawl_monitor_create",
  },
  {
    task: "what monitors do I have set up on firecrawl",
    tool: "firecrawl_firecrawl_monitor_list",
  },
  {
    task: "pause the monitor mon_93 and change its schedule to weekly",
    tool: "firecrawl_firecrawl_monitor_update",
  },
  {
    task: "kick off the price-tracker monitor now instead of waiting for tonight",
    tool: "firecrawl_firecrawl_monitor_run",
  },
  {
    task: "show me what changed on the pages in check chk_77 of my monitor",
    tool: "firecrawl_firecrawl_monitor_check",
    hard: true,
  },
  {
    task: "how many firecrawl credits do we have left this billing period?",
    tool: "firecrawl_firecrawl_credit_usage",
  },
  {
    task: "find recent papers on CRISPR off-target effects from the last two years",
    tool: "firecrawl_firecrawl_research_search_papers",
  },
  {
    task: "which papers cite arXiv:1706.03762?",
    tool: "firecrawl_firecrawl_research_related_papers",
  },
  {
    task: "in paper PMC8123456, what sample size did they use?",
    tool: "firecrawl_firecrawl_research_read_paper",
  },
  {
    task: "find github issues or merged PRs where people hit 'ERR_REQUIRE_ESM' with vitest",
    tool: "firecrawl_firecrawl_developer_search",
    alternatives: ["github_search_issues", "firecrawl_firecrawl_research_search_github"],
  },
  {
    task: "collect the founders, funding and HQ city for the top 10 vector database startups into JSON",
    tool: "firecrawl_firecrawl_agent",
    alternatives: ["tavily_tavily_research"],
  },
  {
    task: "the search I ran earlier missed the official docs, leave a bad rating on that search id",
    tool: "firecrawl_firecrawl_search_feedback",
    hard: true,
  },

  // chrome-devtools
  {
    task: "open https://staging.shop.dev in a new tab",
    tool: "chrome-devtools_new_page",
    alternatives: ["playwright_browser_tabs", "playwright_browser_navigate"],
  },
  {
    task: "which tabs are open in the browser right now",
    tool: "chrome-devtools_list_pages",
    alternatives: ["playwright_browser_tabs"],
  },
  {
    task: "hit reload on the current page, bypass cache",
    tool: "chrome-devtools_navigate_page",
  },
  {
    task: "are there any JS errors in the console on this page?",
    tool: "chrome-devtools_list_console_messages",
    alternatives: ["playwright_browser_console_messages"],
  },
  {
    task: "show me the request headers and set-cookie for that failing /api/login call",
    tool: "chrome-devtools_get_network_request",
    alternatives: ["playwright_browser_network_request"],
    hard: true,
  },
  {
    task: "why is the homepage so slow to load? measure LCP and CLS",
    tool: "chrome-devtools_performance_start_trace",
    hard: true,
  },
  {
    task: "run an accessibility and SEO audit on the landing page",
    tool: "chrome-devtools_lighthouse_audit",
    hard: true,
  },
  {
    task: "the tab eats more and more RAM over time, capture the JS heap so I can find the leak",
    tool: "chrome-devtools_take_heapsnapshot",
  },
  {
    task: "which CSS rule is making the header button red? I want to see the cascade",
    tool: "chrome-devtools_get_css_styles",
  },
  {
    task: "simulate a slow 3G connection and a throttled CPU on this page",
    tool: "chrome-devtools_emulate",
  },
  {
    task: "record a video of me going through the signup flow",
    tool: "chrome-devtools_screencast_start",
  },
  {
    task: "fill in the login form with test@example.com / pass123 and tick remember me",
    tool: "chrome-devtools_fill_form",
    alternatives: ["playwright_browser_fill_form"],
  },
  {
    task: "attach ~/Downloads/invoice.pdf to the file input on the upload page",
    tool: "chrome-devtools_upload_file",
    alternatives: ["playwright_browser_file_upload"],
  },
  {
    task: "an 'are you sure?' popup appeared, accept it",
    tool: "chrome-devtools_handle_dialog",
    alternatives: ["playwright_browser_handle_dialog"],
  },
  {
    task: "grab window.__APP_STATE__ from the page and give it back to me",
    tool: "chrome-devtools_evaluate_script",
    alternatives: ["playwright_browser_evaluate"],
  },
  {
    task: "make the viewport 375x812 so it looks like an iphone",
    tool: "chrome-devtools_resize_page",
    alternatives: ["playwright_browser_resize", "chrome-devtools_emulate"],
  },
  {
    task: "drag the 'Todo' card onto the 'Done' column",
    tool: "chrome-devtools_drag",
    alternatives: ["playwright_browser_drag"],
  },

  // github
  {
    task: "open an issue in acme/web saying the dark mode toggle doesn't persist",
    tool: "github_create_issue",
  },
  {
    task: "what bugs are still open in facebook/react with the label 'Type: Bug'?",
    tool: "github_list_issues",
    alternatives: ["github_search_issues"],
  },
  {
    task: "close issue #482 in our repo and add the wontfix label",
    tool: "github_update_issue",
  },
  {
    task: "reply on issue 91 that the fix ships in v2.3",
    tool: "github_add_issue_comment",
  },
  {
    task: "open a PR from feature/oauth into main titled 'Add OAuth login'",
    tool: "github_create_pull_request",
  },
  {
    task: "what files did PR #1204 touch?",
    tool: "github_get_pull_request_files",
  },
  {
    task: "is CI green on pull request 77?",
    tool: "github_get_pull_request_status",
  },
  {
    task: "approve PR 310 with a note 'looks good, ship it'",
    tool: "github_create_pull_request_review",
  },
  {
    task: "squash-merge pull request 56 in octo/app",
    tool: "github_merge_pull_request",
  },
  {
    task: "the PR is behind main, bring it up to date",
    tool: "github_update_pull_request_branch",
  },
  {
    task: "show me the inline code comments people left on PR 88",
    tool: "github_get_pull_request_comments",
    hard: true,
  },
  {
    task: "did anyone request changes on PR 88?",
    tool: "github_get_pull_request_reviews",
    hard: true,
  },
  {
    task: "where in any public repo is `createBrowserRouter` called together with loader functions?",
    tool: "github_search_code",
    hard: true,
  },
  {
    task: "find popular rust crates for parsing TOML on github",
    tool: "github_search_repositories",
  },
  {
    task: "show me package.json from the main branch of vercel/next.js",
    tool: "github_get_file_contents",
  },
  {
    task: "what were the last 10 commits on the release branch",
    tool: "github_list_commits",
  },
  {
    task: "fork tailwindlabs/heroicons into my account",
    tool: "github_fork_repository",
  },
  {
    task: "commit these three files (src/a.ts, src/b.ts, README.md) together to branch docs-fix",
    tool: "github_push_files",
    hard: true,
  },
  {
    task: "cut a branch hotfix/login off main in acme/api",
    tool: "github_create_branch",
  },
  {
    task: "look up github accounts with sindre in the name, I'm trying to find a maintainer",
    tool: "github_search_users",
  },

  // playwright
  {
    task: "go to https://news.ycombinator.com",
    tool: "playwright_browser_navigate",
    alternatives: ["chrome-devtools_navigate_page", "chrome-devtools_new_page"],
  },
  {
    task: "press back in the browser",
    tool: "playwright_browser_navigate_back",
    alternatives: ["chrome-devtools_navigate_page"],
  },
  {
    task: "click the 'Add to cart' button",
    tool: "playwright_browser_click",
    alternatives: ["chrome-devtools_click"],
  },
  {
    task: "type 'wireless headphones' in the search box and hit enter",
    tool: "playwright_browser_type",
    alternatives: ["chrome-devtools_fill", "chrome-devtools_type_text"],
  },
  {
    task: "pick 'Germany' from the country dropdown",
    tool: "playwright_browser_select_option",
    alternatives: ["chrome-devtools_fill"],
  },
  {
    task: "take a full-page png of the current page",
    tool: "playwright_browser_take_screenshot",
    alternatives: ["chrome-devtools_take_screenshot"],
  },
  {
    task: "what's on the page right now? give me the element tree so you can click things",
    tool: "playwright_browser_snapshot",
    alternatives: ["chrome-devtools_take_snapshot"],
    hard: true,
  },
  {
    task: "wait until 'Order confirmed' shows up",
    tool: "playwright_browser_wait_for",
    alternatives: ["chrome-devtools_wait_for"],
  },
  {
    task: "switch the site to dark mode preference so I can check the dark theme",
    tool: "playwright_browser_emulate_media",
    alternatives: ["chrome-devtools_emulate"],
  },
  {
    task: "list the XHR calls the page made after load",
    tool: "playwright_browser_network_requests",
    alternatives: ["chrome-devtools_list_network_requests"],
  },
  {
    task: "hover over the profile avatar so the menu opens",
    tool: "playwright_browser_hover",
    alternatives: ["chrome-devtools_hover"],
  },
  {
    task: "where on this page is the text 'Unsubscribe'? just find it, don't dump the whole tree",
    tool: "playwright_browser_find",
  },
  {
    task: "drop two images from my disk onto the dropzone area",
    tool: "playwright_browser_drop",
    hard: true,
  },
  {
    task: "hit Escape to close the modal",
    tool: "playwright_browser_press_key",
    alternatives: ["chrome-devtools_press_key"],
  },

  // notion
  {
    task: "find my notion page called 'Q3 planning'",
    tool: "notion_API-post-search",
  },
  {
    task: "read the onboarding doc in notion for me as plain text",
    tool: "notion_API-retrieve-page-markdown",
    alternatives: ["notion_API-get-block-children"],
  },
  {
    task: "create a new page under Engineering Wiki called 'Incident 2024-06-12 postmortem'",
    tool: "notion_API-post-page",
  },
  {
    task: "add a bullet list with the three action items to the end of the meeting notes page",
    tool: "notion_API-patch-block-children",
    alternatives: ["notion_API-update-page-markdown"],
  },
  {
    task: "set the Status property of the roadmap item to 'In progress'",
    tool: "notion_API-patch-page",
    hard: true,
  },
  {
    task: "rewrite the intro section of the notion spec with this new markdown",
    tool: "notion_API-update-page-markdown",
    hard: true,
  },
  {
    task: "which tasks in the Sprint board are assigned to me and due this week?",
    tool: "notion_API-query-data-source",
  },
  {
    task: "leave a comment on the design doc page: 'can we cut scope here?'",
    tool: "notion_API-create-a-comment",
  },
  {
    task: "what have people commented on the launch checklist page",
    tool: "notion_API-retrieve-a-comment",
  },
  {
    task: "move the 'Old ideas' page under the Archive page",
    tool: "notion_API-move-page",
  },
  {
    task: "who is in our notion workspace",
    tool: "notion_API-get-users",
  },
  {
    task: "delete that one outdated paragraph block from the page",
    tool: "notion_API-delete-a-block",
    alternatives: ["notion_API-update-a-block"],
  },
  {
    task: "add a 'Priority' select column to the bugs tracker database",
    tool: "notion_API-update-a-data-source",
    hard: true,
  },
  {
    task: "what templates are available in the Meeting Notes database",
    tool: "notion_API-list-data-source-templates",
  },
  {
    task: "which notion integration/bot am I authenticated as?",
    tool: "notion_API-get-self",
  },

  // memory
  {
    task: "remember that Priya is the tech lead of the billing team",
    tool: "memory_create_entities",
    alternatives: ["memory_add_observations"],
  },
  {
    task: "note that service auth-gateway depends on service user-db",
    tool: "memory_create_relations",
  },
  {
    task: "add to what you know about Priya: she prefers async standups",
    tool: "memory_add_observations",
  },
  {
    task: "what do you remember about anything related to kafka?",
    tool: "memory_search_nodes",
  },
  {
    task: "forget the fact that Tom is on vacation, he's back; keep the rest about Tom",
    tool: "memory_delete_observations",
    hard: true,
  },
  {
    task: "dump everything you've stored in your memory",
    tool: "memory_read_graph",
  },
  {
    task: "pull up the entries for 'Acme Corp' and 'Project Falcon'",
    tool: "memory_open_nodes",
    alternatives: ["memory_search_nodes"],
  },
  {
    task: "billing team no longer owns the invoices service, remove that link",
    tool: "memory_delete_relations",
    hard: true,
  },

  // filesystem
  {
    task: "show me the last 50 lines of /var/log/app/server.log",
    tool: "filesystem_read_text_file",
    alternatives: ["filesystem_read_file"],
  },
  {
    task: "open config/settings.yaml and config/settings.prod.yaml so we can diff them",
    tool: "filesystem_read_multiple_files",
  },
  {
    task: "look at this screenshot for me: ~/Desktop/bug.png",
    tool: "filesystem_read_media_file",
    hard: true,
  },
  {
    task: "save this as notes/todo.md",
    tool: "filesystem_write_file",
  },
  {
    task: "in src/index.ts replace the line `const port = 3000` with `const port = process.env.PORT`",
    tool: "filesystem_edit_file",
    hard: true,
  },
  {
    task: "mkdir -p data/raw/2024",
    tool: "filesystem_create_directory",
  },
  {
    task: "what's in the downloads folder",
    tool: "filesystem_list_directory",
    alternatives: ["filesystem_list_directory_with_sizes"],
  },
  {
    task: "which files in ~/projects are hogging the most space?",
    tool: "filesystem_list_directory_with_sizes",
    hard: true,
  },
  {
    task: "give me the folder structure of the repo, skipping node_modules",
    tool: "filesystem_directory_tree",
  },
  {
    task: "rename report_final_FINAL.docx to report-2024.docx",
    tool: "filesystem_move_file",
  },
  {
    task: "find all the *.test.ts files anywhere under packages/",
    tool: "filesystem_search_files",
  },
  {
    task: "when was backup.tar.gz last modified and how big is it",
    tool: "filesystem_get_file_info",
  },
  {
    task: "which folders are you even allowed to touch?",
    tool: "filesystem_list_allowed_directories",
  },

  // sentry
  {
    task: "what are the top unresolved errors in the mobile-app project this week",
    tool: "sentry_search_issues",
    hard: true,
  },
  {
    task: "how many 500 errors did we log in production in the last 24 hours?",
    tool: "sentry_search_events",
    hard: true,
  },
  {
    task: "look at https://acme.sentry.io/issues/WEB-3F2/ and tell me what's going on",
    tool: "sentry_get_sentry_resource",
  },
  {
    task: "mark sentry issue BACKEND-812 as resolved and assign it to me",
    tool: "sentry_update_issue",
  },
  {
    task: "figure out the root cause of issue API-55 and suggest a code fix",
    tool: "sentry_analyze_issue_with_seer",
  },
  {
    task: "what's the slug of our checkout project in sentry",
    tool: "sentry_find_projects",
  },
  {
    task: "I need the DSN for the web project in sentry",
    tool: "sentry_search_sentry_tools",
    alternatives: ["sentry_execute_sentry_tool"],
  },

  // tavily / brave-search / exa (web search)
  {
    task: "what did the fed decide about interest rates yesterday",
    tool: "tavily_tavily_search",
    alternatives: ["brave-search_brave_web_search", "exa_web_search_exa", "firecrawl_firecrawl_search"],
  },
  {
    task: "write me a well-sourced report on the state of solid-state battery commercialization",
    tool: "tavily_tavily_research",
    alternatives: ["firecrawl_firecrawl_agent"],
  },
  {
    task: "get the text of these two articles: https://a.com/post1 and https://b.org/story",
    tool: "tavily_tavily_extract",
    alternatives: ["exa_web_fetch_exa", "firecrawl_firecrawl_scrape"],
  },
  {
    task: "map out the site structure of https://docs.python.org, just the URLs",
    tool: "tavily_tavily_map",
    alternatives: ["firecrawl_firecrawl_map"],
  },
  {
    task: "any good ramen places near Shibuya station open late?",
    tool: "brave-search_brave_local_search",
    hard: true,
  },
  {
    task: "search the web for 'pnpm workspace catalog protocol' and show me a few results",
    tool: "brave-search_brave_web_search",
    alternatives: ["tavily_tavily_search", "exa_web_search_exa", "firecrawl_firecrawl_search"],
  },
  {
    task: "plumber in Austin TX with good reviews and a phone number",
    tool: "brave-search_brave_local_search",
  },
  {
    task: "find blog posts by engineers comparing Bun and Deno in production",
    tool: "exa_web_search_exa",
    alternatives: ["brave-search_brave_web_search", "tavily_tavily_search", "firecrawl_firecrawl_search"],
  },
  {
    task: "read https://martinfowler.com/articles/microservices.html in full",
    tool: "exa_web_fetch_exa",
    alternatives: ["firecrawl_firecrawl_scrape", "tavily_tavily_extract"],
  },
  {
    task: "find the LinkedIn profile of the CTO of Datadog",
    tool: "exa_web_search_exa",
    alternatives: ["brave-search_brave_web_search", "tavily_tavily_search", "firecrawl_firecrawl_search"],
  },

  // context7
  {
    task: "how do I set up middleware in Next.js 15? get the current docs, not your memory",
    tool: "context7_query-docs",
    alternatives: ["context7_resolve-library-id"],
  },
  {
    task: "what's the context7 library id for tanstack query",
    tool: "context7_resolve-library-id",
  },
  {
    task: "show code examples from /prisma/prisma docs for a many-to-many relation",
    tool: "context7_query-docs",
  },

  // shopify-dev
  {
    task: "how do I write a GraphQL mutation to create a product variant with the Shopify Admin API?",
    tool: "shopify-dev_search_docs_chunks",
    alternatives: ["shopify-dev_learn_shopify_api"],
  },
  {
    task: "check this Shopify admin graphql query I wrote for made-up fields",
    tool: "shopify-dev_validate",
    hard: true,
  },
  {
    task: "I edited sections/header.liquid in my theme, make sure the liquid is valid",
    tool: "shopify-dev_validate_theme",
    hard: true,
  },
  {
    task: "get set up to build a shopify checkout ui extension",
    tool: "shopify-dev_learn_shopify_api",
  },

  // figma
  {
    task: "pull the layout and components of figma file aBc123XyZ so I can build it in React",
    tool: "figma_get_figma_data",
  },
  {
    task: "export the icons from the design file as svg into ./assets",
    tool: "figma_download_figma_images",
  },

  // sequential-thinking
  {
    task: "let's think this migration plan through step by step and revise as we go",
    tool: "sequential-thinking_sequentialthinking",
  },
  {
    task: "break this tricky scheduling puzzle into steps before answering, you can backtrack",
    tool: "sequential-thinking_sequentialthinking",
  },

  // everything (MCP test server)
  {
    task: "echo back 'hello junction' so I know the server works",
    tool: "everything_echo",
  },
  {
    task: "add 17 and 25 using the test server",
    tool: "everything_get-sum",
  },
  {
    task: "print the environment variables the MCP server process sees",
    tool: "everything_get-env",
  },
  {
    task: "gzip the file at this URL and give me a link to download it",
    tool: "everything_gzip-file-as-resource",
  },
  {
    task: "start a fake long job with 5 steps so I can test progress notifications",
    tool: "everything_trigger-long-running-operation",
  },
  {
    task: "turn on the random log messages from the test server",
    tool: "everything_toggle-simulated-logging",
  },
];

/**
 * Requests no listed tool can do, written blind from tool-lists/ like the set above: the search
 * should say nothing fits. Those with a close-looking tool name it in `why`. A request counts as
 * unserved when no tool is built for it: running arbitrary code (playwright_browser_run_code_unsafe,
 * kubernetes_exec_in_pod, firecrawl_firecrawl_interact) or driving some third-party website's UI
 * with the browser tools is not counted as serving it.
 */
export const TOOL_SEARCH_FRESH_NO_TOOL_TASKS: NoToolTask[] = [
  // look close to a listed tool, but are not served
  {
    task: "delete the repo acme/old-prototype on github, we don't need it anymore",
    why:
      "github_create_repository and github_fork_repository make repositories; no github tool deletes " +
      "or archives one.",
  },
  {
    task: "remove the file docs/legacy.md from the main branch on github",
    why:
      "github_create_or_update_file and github_push_files only add or change files; there is no " +
      "delete-file tool on the github server.",
  },
  {
    task: "publish a v3.0.0 release on github with these release notes",
    why: "github_create_branch and the commit/PR tools touch refs, but no tool creates tags or releases.",
  },
  {
    task: "re-run the failed GitHub Actions job on PR 77",
    why:
      "github_get_pull_request_status only reads the checks' combined status; no tool triggers or " +
      "re-runs workflows.",
  },
  {
    task: "permanently delete the file /tmp/scratch/old.csv from disk",
    why:
      "The filesystem server can write, edit, move and read but has no delete; filesystem_move_file " +
      "only relocates it.",
  },
  {
    task: "cancel the firecrawl crawl that's still running, it's burning credits",
    why:
      "firecrawl_firecrawl_check_crawl_status only reads the job state; no tool cancels a crawl " +
      "(firecrawl_firecrawl_monitor_delete is for monitors, not crawls).",
  },
  {
    task: "change the primary button color in our figma file to #1A73E8",
    why: "figma_get_figma_data and figma_download_figma_images only read a file; nothing edits designs.",
  },
  {
    task: "set the stock of product 'Blue Hoodie' in my shopify store to 40",
    why:
      "The shopify-dev tools search docs and validate code (shopify-dev_search_docs_chunks, " +
      "shopify-dev_validate); none reaches a live store.",
  },
  {
    task: "create a read-only user called reporting in our mongodb cluster",
    why:
      "mongodb has tools for data, collections and indexes, but nothing for users or roles; " +
      "mongodb_connect only opens a connection.",
  },
  {
    task: "upgrade the EKS control plane to kubernetes 1.31",
    why:
      "kubernetes_kubectl_reconnect mentions EKS upgrades but only reconnects after one; the " +
      "kubernetes tools drive kubectl and helm, not the cloud provider's cluster API.",
  },
  {
    task: "invite sam@acme.io to our notion workspace as a member",
    why: "notion_API-get-users and notion_API-get-user list and read users; no tool invites members.",
  },
  {
    task: "book a table for 4 at that ramen place tonight at 8",
    why:
      "brave-search_brave_local_search finds restaurants and their phone numbers but cannot make " +
      "reservations.",
  },
  {
    task: "file a ticket in Linear for the login bug",
    why: "github_create_issue files GitHub issues only; no Linear or Jira tool is listed.",
  },
  {
    task: "multiply 12.5 by 8 using the test server",
    why: "everything_get-sum only adds two numbers; the everything server has no multiply.",
  },
  {
    task: "publish our internal SDK's docs to context7 so others can query them",
    why:
      "context7_resolve-library-id and context7_query-docs only look up libraries already indexed; " +
      "nothing submits new ones.",
  },
  {
    task: "how much does our kubernetes cluster cost per namespace in dollars this month",
    why:
      "kubectl tools (kubernetes_kubectl_get, kubernetes_kubectl_generic for top) show resources and " +
      "usage, not billing; firecrawl_firecrawl_credit_usage is Firecrawl credits, not cloud cost.",
  },
  // unrelated to every listed server
  {
    task: "email the weekly report to the whole team",
    why: "No listed tool sends email.",
  },
  {
    task: "post 'deploy done' in the #releases slack channel",
    why: "No Slack or chat tool is listed.",
  },
  {
    task: "put a 30 minute sync with Dana on my calendar for Thursday at 2pm",
    why: "No calendar tool is listed.",
  },
  {
    task: "what's the balance on my checking account",
    why: "No banking or finance account tool is listed.",
  },
  {
    task: "text my landlord that the rent will be a day late",
    why: "No SMS or messaging tool is listed.",
  },
  {
    task: "play some lo-fi music on spotify",
    why: "No music or media playback tool is listed.",
  },
  {
    task: "turn off the lights in the living room",
    why: "No smart-home tool is listed.",
  },
  {
    task: "tweet our launch announcement from the company account",
    why: "No social-media posting tool is listed; the web search tools only read.",
  },
  {
    task: "deploy the frontend to vercel production",
    why: "No Vercel or hosting deploy tool is listed.",
  },
  {
    task: "refund the last Stripe charge for customer cus_8812",
    why: "No payments tool is listed.",
  },
  {
    task: "buy the domain junction-tools.dev",
    why: "No domain registrar tool is listed.",
  },
  {
    task: "rotate the AWS access keys for the ci-deployer IAM user",
    why: "No AWS or IAM tool is listed.",
  },
  {
    task: "check my gmail for anything from the recruiter",
    why: "No mail inbox tool is listed.",
  },
  {
    task: "send the contract to the office printer",
    why: "No printing tool is listed.",
  },
  {
    task: "start a zoom call with the design team now",
    why: "No video-conferencing tool is listed.",
  },
];
