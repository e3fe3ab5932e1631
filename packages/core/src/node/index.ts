// What needs Node's file system; the main entry runs anywhere.
export { fileResumeClaims } from "./file-resume-claims.js";
