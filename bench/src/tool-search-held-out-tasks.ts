import type { ToolSearchTask } from "./tool-search-tasks.ts";

/**
 * A second set of tasks for the tool-search retrieval benchmark, held out: written before any
 * change to the search was measured on it, over tools the first set mostly does not name (and
 * never a task two servers' tools do alike). A change to the ranking is judged on this set too,
 * so that it does not just learn the first set's wording.
 */
export const TOOL_SEARCH_HELD_OUT_TASKS: ToolSearchTask[] = [
  // filesystem
  { task: "find all the .log files under the project folder", tool: "filesystem_search_files" },
  { task: "when was report.pdf last modified and how large is it", tool: "filesystem_get_file_info" },
  { task: "print the folder structure of src as a tree", tool: "filesystem_directory_tree" },
  { task: "load photo.png so you can look at it", tool: "filesystem_read_media_file" },
  { task: "open a.txt, b.txt and c.txt together", tool: "filesystem_read_multiple_files" },
  { task: "what files are in the docs folder", tool: "filesystem_list_directory" },
  // memory
  { task: "forget the entity called OldProject", tool: "memory_delete_entities" },
  { task: "look up everything the knowledge graph knows about coffee", tool: "memory_search_nodes" },
  { task: "remove the link between Alice and Acme", tool: "memory_delete_relations" },
  // github
  { task: "start a brand new repository named dotfiles", tool: "github_create_repository" },
  { task: "close issue 12 and change its title", tool: "github_update_issue" },
  { task: "look for code that calls parseConfig across GitHub", tool: "github_search_code" },
  { task: "which files changed in pull request 8", tool: "github_get_pull_request_files" },
  { task: "have the CI checks passed on PR 30", tool: "github_get_pull_request_status" },
  { task: "upload these three files to the repo in one commit", tool: "github_push_files" },
  { task: "show me the open issues in my repo", tool: "github_list_issues" },
  // chrome devtools
  { task: "record a video of the page as I use it", tool: "chrome-devtools_screencast_start" },
  // kubernetes
  { task: "delete the nginx deployment", tool: "kubernetes_kubectl_delete" },
  { task: "roll back the api deployment to its previous version", tool: "kubernetes_kubectl_rollout" },
  { task: "describe the pod that keeps crashing", tool: "kubernetes_kubectl_describe" },
  { task: "upgrade the redis helm release to the new chart version", tool: "kubernetes_upgrade_helm_chart" },
  { task: "apply this YAML manifest to the cluster", tool: "kubernetes_kubectl_apply" },
  { task: "show me the API resource types the cluster supports", tool: "kubernetes_list_api_resources" },
  // mongodb
  { task: "remove every order older than 2020 from the orders collection", tool: "mongodb_delete-many" },
  { task: "rename the users collection to customers", tool: "mongodb_rename-collection" },
  { task: "how much disk space does the events collection use", tool: "mongodb_collection-storage-size" },
  { task: "which indexes exist on the products collection", tool: "mongodb_collection-indexes" },
  { task: "save the query results to a JSON file", tool: "mongodb_export" },
  { task: "show the query plan for this find", tool: "mongodb_explain" },
  // notion
  { task: "search my Notion workspace for the roadmap page", tool: "notion_API-post-search" },
  { task: "change the title of this Notion page", tool: "notion_API-patch-page" },
  { task: "move the meeting notes page under the Archive page", tool: "notion_API-move-page" },
  { task: "who am I logged in as in Notion", tool: "notion_API-get-self" },
  // firecrawl
  { task: "check whether my crawl job has finished", tool: "firecrawl_firecrawl_check_crawl_status" },
  { task: "delete the price-watch monitor", tool: "firecrawl_firecrawl_monitor_delete" },
  // sentry
  { task: "mark the Sentry issue PROJ-123 as resolved", tool: "sentry_update_issue" },
  { task: "search Sentry for errors in the last hour", tool: "sentry_search_events" },
  // shopify
  { task: "learn how the Shopify Admin API works", tool: "shopify-dev_learn_shopify_api" },
  // everything
  { task: "compress this file with gzip", tool: "everything_gzip-file-as-resource" },
  { task: "turn on simulated logging", tool: "everything_toggle-simulated-logging" },
  { task: "repeat back what I say", tool: "everything_echo" },
];
