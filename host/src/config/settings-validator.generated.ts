// @ts-nocheck -- Ajv's generated code; the exports at the end are typed.
// Written by host/scripts/generate-settings-validator.ts from src/config/settings-schema.ts: do not edit.
import type { ValidateFunction } from 'ajv';
import ajvRuntime0 from 'ajv/dist/runtime/ucs2length.js';
const settings = validate10;
const schema11 = {"additionalProperties":false,"type":"object","properties":{"port":{"minimum":0,"maximum":65535,"description":"TCP port of the HTTP server (0 picks a free one).","type":"integer"},"host":{"minLength":1,"description":"Address the HTTP server binds to.","type":"string"},"dataDir":{"minLength":1,"description":"Where Strata keeps its store; relative paths are taken from the repository root (from the working directory for flags and variables).","type":"string"},"logLevel":{"type":"string","enum":["fatal","error","warn","info","debug","trace","silent"],"description":"Least severe level written to the log."},"logFormat":{"type":"string","enum":["auto","text","json"],"description":"How log lines are written: text (a readable line each), json (one JSON object each, for log collectors), or auto: text when the log goes to a terminal, json otherwise."},"maxBodyBytes":{"minimum":1024,"maximum":1073741824,"description":"Largest request body accepted, counted both as sent and after decompression.","type":"integer"},"compressResponses":{"description":"Answer with gzip when the client accepts it (the graph is compressed once per change).","type":"boolean"},"requestTimeoutMs":{"minimum":1000,"maximum":3600000,"description":"Time a client has to send a whole request.","type":"integer"},"headersTimeoutMs":{"minimum":1000,"maximum":3600000,"description":"Time a client has to send a request's line and headers (at most requestTimeoutMs); a connection that has not is answered 408 and closed.","type":"integer"},"maxConnections":{"minimum":1,"maximum":1000000,"description":"Connections held at once; one more is answered 503 and closed. Kept below the process's limit of open files.","type":"integer"},"maxConnectionsPerAddress":{"minimum":1,"maximum":1000000,"description":"Connections held at once from one client address; one more from it is answered 503 and closed.","type":"integer"},"watch":{"description":"Follow edits to the repository while serving.","type":"boolean"},"authToken":{"minLength":16,"description":"When set, every request must carry `Authorization: Bearer <token>` (at least 16 characters).","type":"string"},"dev":{"description":"Plugin development: watch plugin folders, rebuild and reload a plugin when it changes (strata serve --dev).","type":"boolean"},"allowedHosts":{"maxItems":100,"description":"Host names the server answers to besides loopback names (localhost, *.localhost), IP addresses and the `host` it binds to: the name in the Host header a browser sends (others are refused, against DNS rebinding). A leading dot allows a domain and its subdomains (`.example.com`). Comma-separated in STRATA_ALLOWED_HOSTS.","type":"array","items":{"minLength":1,"maxLength":253,"pattern":"^\\.?[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$","type":"string"}},"cors":{"additionalProperties":false,"type":"object","properties":{"origins":{"maxItems":100,"description":"Origins (`https://ui.example.com`) of web pages served elsewhere that may use the API: they get CORS headers and may send requests that change state, which pages of any other origin may not. Comma-separated in STRATA_CORS_ORIGINS.","type":"array","items":{"pattern":"^https?://[^/?#\\s]+$","type":"string"}}}},"plugins":{"additionalProperties":false,"type":"object","properties":{"directories":{"maxItems":100,"description":"Folders holding plugins (a plugin folder, or a folder of plugin folders); relative paths as for dataDir. Comma-separated in STRATA_PLUGINS_DIRECTORIES.","type":"array","items":{"minLength":1,"type":"string"}},"builtIns":{"description":"Load the built-in overlay plugins (git-activity, test-coverage, complexity, ownership, hotspots, change-coupling); off: only the plugins of directories.","type":"boolean"},"memoryMb":{"minimum":8,"maximum":4096,"description":"Heap limit of each plugin sandbox, in MiB.","type":"integer"},"cpuTimeMs":{"minimum":10,"maximum":600000,"description":"CPU time one apply may use, plus cpuTimeMsPerFile for each file of the graph.","type":"integer"},"cpuTimeMsPerFile":{"minimum":0,"maximum":1000,"description":"CPU time one apply may use for each file of the graph, on top of cpuTimeMs (0: cpuTimeMs alone, whatever the repository).","type":"number"},"wallTimeMs":{"minimum":10,"maximum":3600000,"description":"Wall time one apply may take, plus wallTimeMsPerFile for each file of the graph, not counting the time it waits on the host's capabilities (git, file reads).","type":"integer"},"wallTimeMsPerFile":{"minimum":0,"maximum":1000,"description":"Wall time one apply may take for each file of the graph, on top of wallTimeMs (0: wallTimeMs alone, whatever the repository).","type":"number"},"loadTimeMs":{"minimum":10,"maximum":600000,"description":"Time loading a plugin may take.","type":"integer"},"maxCapabilityCalls":{"minimum":1,"maximum":10000000,"description":"Capability calls one apply may make.","type":"integer"},"gitCommitGraph":{"description":"Write git's commit-graph with changed-path filters into the repository's .git before blaming (as git maintenance does): blame gets several times faster.","type":"boolean"}}},"layout":{"additionalProperties":false,"type":"object","properties":{"backend":{"type":"string","enum":["auto","tensorflow-gpu","tensorflow","webgpu","wasm","cpu"],"description":"TensorFlow.js backend of the layout: auto takes the first that loads of native TensorFlow on a GPU, native TensorFlow, WebGPU on a GPU, wasm, cpu (webgpu by name also takes a software adapter)."},"maxIterations":{"minimum":1,"maximum":1000000,"description":"Largest `iterations` a layout computation accepts.","type":"integer"}}},"index":{"additionalProperties":false,"type":"object","properties":{"maxFileBytes":{"minimum":1024,"description":"Files larger than this are graph nodes but are not parsed for imports.","type":"integer"},"cache":{"description":"Keep what was read of each file in the data directory, so that the next start reads only files changed since (by size, modification and change time, inode), and the last graph, which a start serves as it is when nothing it was made from changed.","type":"boolean"}}},"rules":{"additionalProperties":false,"fileOnly":true,"type":"object","properties":{"forbidden":{"maxItems":200,"description":"Architecture rules in dependency-cruiser's `forbidden` shape (`name`, `severity`, `from`/`to` with `path`, `pathNot`, `circular`, `orphan`, `dependencyTypes`), checked by `strata check` and GET /api/graph/violations; each is checked there, with its mistakes named.","type":"array","items":{}}}}}};
const func2 = Object.prototype.hasOwnProperty;
const func3 = ajvRuntime0.default;
const pattern0 = new RegExp("^\\.?[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$", "u");
const pattern1 = new RegExp("^https?://[^/?#\\s]+$", "u");

function validate10(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
const _errs1 = errors;
for(const key0 in data){
if(!(func2.call(schema11.properties, key0))){
validate10.errors = [{instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"}];
return false;
break;
}
}
if(_errs1 === errors){
if(data.port !== undefined){
let data0 = data.port;
const _errs2 = errors;
if(!((typeof data0 == "number") && (!(data0 % 1) && !isNaN(data0)))){
validate10.errors = [{instancePath:instancePath+"/port",schemaPath:"#/properties/port/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs2){
if(typeof data0 == "number"){
if(data0 > 65535 || isNaN(data0)){
validate10.errors = [{instancePath:instancePath+"/port",schemaPath:"#/properties/port/maximum",keyword:"maximum",params:{comparison: "<=", limit: 65535},message:"must be <= 65535"}];
return false;
}
else {
if(data0 < 0 || isNaN(data0)){
validate10.errors = [{instancePath:instancePath+"/port",schemaPath:"#/properties/port/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.host !== undefined){
let data1 = data.host;
const _errs4 = errors;
if(errors === _errs4){
if(typeof data1 === "string"){
if(func3(data1) < 1){
validate10.errors = [{instancePath:instancePath+"/host",schemaPath:"#/properties/host/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate10.errors = [{instancePath:instancePath+"/host",schemaPath:"#/properties/host/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.dataDir !== undefined){
let data2 = data.dataDir;
const _errs6 = errors;
if(errors === _errs6){
if(typeof data2 === "string"){
if(func3(data2) < 1){
validate10.errors = [{instancePath:instancePath+"/dataDir",schemaPath:"#/properties/dataDir/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate10.errors = [{instancePath:instancePath+"/dataDir",schemaPath:"#/properties/dataDir/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.logLevel !== undefined){
let data3 = data.logLevel;
const _errs8 = errors;
if(typeof data3 !== "string"){
validate10.errors = [{instancePath:instancePath+"/logLevel",schemaPath:"#/properties/logLevel/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((((((data3 === "fatal") || (data3 === "error")) || (data3 === "warn")) || (data3 === "info")) || (data3 === "debug")) || (data3 === "trace")) || (data3 === "silent"))){
validate10.errors = [{instancePath:instancePath+"/logLevel",schemaPath:"#/properties/logLevel/enum",keyword:"enum",params:{allowedValues: schema11.properties.logLevel.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs8 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.logFormat !== undefined){
let data4 = data.logFormat;
const _errs10 = errors;
if(typeof data4 !== "string"){
validate10.errors = [{instancePath:instancePath+"/logFormat",schemaPath:"#/properties/logFormat/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((data4 === "auto") || (data4 === "text")) || (data4 === "json"))){
validate10.errors = [{instancePath:instancePath+"/logFormat",schemaPath:"#/properties/logFormat/enum",keyword:"enum",params:{allowedValues: schema11.properties.logFormat.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs10 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.maxBodyBytes !== undefined){
let data5 = data.maxBodyBytes;
const _errs12 = errors;
if(!((typeof data5 == "number") && (!(data5 % 1) && !isNaN(data5)))){
validate10.errors = [{instancePath:instancePath+"/maxBodyBytes",schemaPath:"#/properties/maxBodyBytes/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs12){
if(typeof data5 == "number"){
if(data5 > 1073741824 || isNaN(data5)){
validate10.errors = [{instancePath:instancePath+"/maxBodyBytes",schemaPath:"#/properties/maxBodyBytes/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1073741824},message:"must be <= 1073741824"}];
return false;
}
else {
if(data5 < 1024 || isNaN(data5)){
validate10.errors = [{instancePath:instancePath+"/maxBodyBytes",schemaPath:"#/properties/maxBodyBytes/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1024},message:"must be >= 1024"}];
return false;
}
}
}
}
var valid0 = _errs12 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.compressResponses !== undefined){
const _errs14 = errors;
if(typeof data.compressResponses !== "boolean"){
validate10.errors = [{instancePath:instancePath+"/compressResponses",schemaPath:"#/properties/compressResponses/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid0 = _errs14 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.requestTimeoutMs !== undefined){
let data7 = data.requestTimeoutMs;
const _errs16 = errors;
if(!((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7)))){
validate10.errors = [{instancePath:instancePath+"/requestTimeoutMs",schemaPath:"#/properties/requestTimeoutMs/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs16){
if(typeof data7 == "number"){
if(data7 > 3600000 || isNaN(data7)){
validate10.errors = [{instancePath:instancePath+"/requestTimeoutMs",schemaPath:"#/properties/requestTimeoutMs/maximum",keyword:"maximum",params:{comparison: "<=", limit: 3600000},message:"must be <= 3600000"}];
return false;
}
else {
if(data7 < 1000 || isNaN(data7)){
validate10.errors = [{instancePath:instancePath+"/requestTimeoutMs",schemaPath:"#/properties/requestTimeoutMs/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1000},message:"must be >= 1000"}];
return false;
}
}
}
}
var valid0 = _errs16 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.headersTimeoutMs !== undefined){
let data8 = data.headersTimeoutMs;
const _errs18 = errors;
if(!((typeof data8 == "number") && (!(data8 % 1) && !isNaN(data8)))){
validate10.errors = [{instancePath:instancePath+"/headersTimeoutMs",schemaPath:"#/properties/headersTimeoutMs/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs18){
if(typeof data8 == "number"){
if(data8 > 3600000 || isNaN(data8)){
validate10.errors = [{instancePath:instancePath+"/headersTimeoutMs",schemaPath:"#/properties/headersTimeoutMs/maximum",keyword:"maximum",params:{comparison: "<=", limit: 3600000},message:"must be <= 3600000"}];
return false;
}
else {
if(data8 < 1000 || isNaN(data8)){
validate10.errors = [{instancePath:instancePath+"/headersTimeoutMs",schemaPath:"#/properties/headersTimeoutMs/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1000},message:"must be >= 1000"}];
return false;
}
}
}
}
var valid0 = _errs18 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.maxConnections !== undefined){
let data9 = data.maxConnections;
const _errs20 = errors;
if(!((typeof data9 == "number") && (!(data9 % 1) && !isNaN(data9)))){
validate10.errors = [{instancePath:instancePath+"/maxConnections",schemaPath:"#/properties/maxConnections/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs20){
if(typeof data9 == "number"){
if(data9 > 1000000 || isNaN(data9)){
validate10.errors = [{instancePath:instancePath+"/maxConnections",schemaPath:"#/properties/maxConnections/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000"}];
return false;
}
else {
if(data9 < 1 || isNaN(data9)){
validate10.errors = [{instancePath:instancePath+"/maxConnections",schemaPath:"#/properties/maxConnections/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
var valid0 = _errs20 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.maxConnectionsPerAddress !== undefined){
let data10 = data.maxConnectionsPerAddress;
const _errs22 = errors;
if(!((typeof data10 == "number") && (!(data10 % 1) && !isNaN(data10)))){
validate10.errors = [{instancePath:instancePath+"/maxConnectionsPerAddress",schemaPath:"#/properties/maxConnectionsPerAddress/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs22){
if(typeof data10 == "number"){
if(data10 > 1000000 || isNaN(data10)){
validate10.errors = [{instancePath:instancePath+"/maxConnectionsPerAddress",schemaPath:"#/properties/maxConnectionsPerAddress/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000"}];
return false;
}
else {
if(data10 < 1 || isNaN(data10)){
validate10.errors = [{instancePath:instancePath+"/maxConnectionsPerAddress",schemaPath:"#/properties/maxConnectionsPerAddress/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
var valid0 = _errs22 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.watch !== undefined){
const _errs24 = errors;
if(typeof data.watch !== "boolean"){
validate10.errors = [{instancePath:instancePath+"/watch",schemaPath:"#/properties/watch/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid0 = _errs24 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.authToken !== undefined){
let data12 = data.authToken;
const _errs26 = errors;
if(errors === _errs26){
if(typeof data12 === "string"){
if(func3(data12) < 16){
validate10.errors = [{instancePath:instancePath+"/authToken",schemaPath:"#/properties/authToken/minLength",keyword:"minLength",params:{limit: 16},message:"must NOT have fewer than 16 characters"}];
return false;
}
}
else {
validate10.errors = [{instancePath:instancePath+"/authToken",schemaPath:"#/properties/authToken/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs26 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.dev !== undefined){
const _errs28 = errors;
if(typeof data.dev !== "boolean"){
validate10.errors = [{instancePath:instancePath+"/dev",schemaPath:"#/properties/dev/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid0 = _errs28 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.allowedHosts !== undefined){
let data14 = data.allowedHosts;
const _errs30 = errors;
if(errors === _errs30){
if(Array.isArray(data14)){
if(data14.length > 100){
validate10.errors = [{instancePath:instancePath+"/allowedHosts",schemaPath:"#/properties/allowedHosts/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"}];
return false;
}
else {
var valid1 = true;
const len0 = data14.length;
for(let i0=0; i0<len0; i0++){
let data15 = data14[i0];
const _errs32 = errors;
if(errors === _errs32){
if(typeof data15 === "string"){
if(func3(data15) > 253){
validate10.errors = [{instancePath:instancePath+"/allowedHosts/" + i0,schemaPath:"#/properties/allowedHosts/items/maxLength",keyword:"maxLength",params:{limit: 253},message:"must NOT have more than 253 characters"}];
return false;
}
else {
if(func3(data15) < 1){
validate10.errors = [{instancePath:instancePath+"/allowedHosts/" + i0,schemaPath:"#/properties/allowedHosts/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern0.test(data15)){
validate10.errors = [{instancePath:instancePath+"/allowedHosts/" + i0,schemaPath:"#/properties/allowedHosts/items/pattern",keyword:"pattern",params:{pattern: "^\\.?[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$"},message:"must match pattern \""+"^\\.?[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$"+"\""}];
return false;
}
}
}
}
else {
validate10.errors = [{instancePath:instancePath+"/allowedHosts/" + i0,schemaPath:"#/properties/allowedHosts/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid1 = _errs32 === errors;
if(!valid1){
break;
}
}
}
}
else {
validate10.errors = [{instancePath:instancePath+"/allowedHosts",schemaPath:"#/properties/allowedHosts/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs30 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.cors !== undefined){
let data16 = data.cors;
const _errs34 = errors;
if(errors === _errs34){
if(data16 && typeof data16 == "object" && !Array.isArray(data16)){
const _errs36 = errors;
for(const key1 in data16){
if(!(key1 === "origins")){
validate10.errors = [{instancePath:instancePath+"/cors",schemaPath:"#/properties/cors/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"}];
return false;
break;
}
}
if(_errs36 === errors){
if(data16.origins !== undefined){
let data17 = data16.origins;
const _errs37 = errors;
if(errors === _errs37){
if(Array.isArray(data17)){
if(data17.length > 100){
validate10.errors = [{instancePath:instancePath+"/cors/origins",schemaPath:"#/properties/cors/properties/origins/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"}];
return false;
}
else {
var valid3 = true;
const len1 = data17.length;
for(let i1=0; i1<len1; i1++){
let data18 = data17[i1];
const _errs39 = errors;
if(errors === _errs39){
if(typeof data18 === "string"){
if(!pattern1.test(data18)){
validate10.errors = [{instancePath:instancePath+"/cors/origins/" + i1,schemaPath:"#/properties/cors/properties/origins/items/pattern",keyword:"pattern",params:{pattern: "^https?://[^/?#\\s]+$"},message:"must match pattern \""+"^https?://[^/?#\\s]+$"+"\""}];
return false;
}
}
else {
validate10.errors = [{instancePath:instancePath+"/cors/origins/" + i1,schemaPath:"#/properties/cors/properties/origins/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid3 = _errs39 === errors;
if(!valid3){
break;
}
}
}
}
else {
validate10.errors = [{instancePath:instancePath+"/cors/origins",schemaPath:"#/properties/cors/properties/origins/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
}
}
}
else {
validate10.errors = [{instancePath:instancePath+"/cors",schemaPath:"#/properties/cors/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs34 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.plugins !== undefined){
let data19 = data.plugins;
const _errs41 = errors;
if(errors === _errs41){
if(data19 && typeof data19 == "object" && !Array.isArray(data19)){
const _errs43 = errors;
for(const key2 in data19){
if(!(func2.call(schema11.properties.plugins.properties, key2))){
validate10.errors = [{instancePath:instancePath+"/plugins",schemaPath:"#/properties/plugins/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties"}];
return false;
break;
}
}
if(_errs43 === errors){
if(data19.directories !== undefined){
let data20 = data19.directories;
const _errs44 = errors;
if(errors === _errs44){
if(Array.isArray(data20)){
if(data20.length > 100){
validate10.errors = [{instancePath:instancePath+"/plugins/directories",schemaPath:"#/properties/plugins/properties/directories/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"}];
return false;
}
else {
var valid5 = true;
const len2 = data20.length;
for(let i2=0; i2<len2; i2++){
let data21 = data20[i2];
const _errs46 = errors;
if(errors === _errs46){
if(typeof data21 === "string"){
if(func3(data21) < 1){
validate10.errors = [{instancePath:instancePath+"/plugins/directories/" + i2,schemaPath:"#/properties/plugins/properties/directories/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate10.errors = [{instancePath:instancePath+"/plugins/directories/" + i2,schemaPath:"#/properties/plugins/properties/directories/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid5 = _errs46 === errors;
if(!valid5){
break;
}
}
}
}
else {
validate10.errors = [{instancePath:instancePath+"/plugins/directories",schemaPath:"#/properties/plugins/properties/directories/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid4 = _errs44 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data19.builtIns !== undefined){
const _errs48 = errors;
if(typeof data19.builtIns !== "boolean"){
validate10.errors = [{instancePath:instancePath+"/plugins/builtIns",schemaPath:"#/properties/plugins/properties/builtIns/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid4 = _errs48 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data19.memoryMb !== undefined){
let data23 = data19.memoryMb;
const _errs50 = errors;
if(!((typeof data23 == "number") && (!(data23 % 1) && !isNaN(data23)))){
validate10.errors = [{instancePath:instancePath+"/plugins/memoryMb",schemaPath:"#/properties/plugins/properties/memoryMb/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs50){
if(typeof data23 == "number"){
if(data23 > 4096 || isNaN(data23)){
validate10.errors = [{instancePath:instancePath+"/plugins/memoryMb",schemaPath:"#/properties/plugins/properties/memoryMb/maximum",keyword:"maximum",params:{comparison: "<=", limit: 4096},message:"must be <= 4096"}];
return false;
}
else {
if(data23 < 8 || isNaN(data23)){
validate10.errors = [{instancePath:instancePath+"/plugins/memoryMb",schemaPath:"#/properties/plugins/properties/memoryMb/minimum",keyword:"minimum",params:{comparison: ">=", limit: 8},message:"must be >= 8"}];
return false;
}
}
}
}
var valid4 = _errs50 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data19.cpuTimeMs !== undefined){
let data24 = data19.cpuTimeMs;
const _errs52 = errors;
if(!((typeof data24 == "number") && (!(data24 % 1) && !isNaN(data24)))){
validate10.errors = [{instancePath:instancePath+"/plugins/cpuTimeMs",schemaPath:"#/properties/plugins/properties/cpuTimeMs/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs52){
if(typeof data24 == "number"){
if(data24 > 600000 || isNaN(data24)){
validate10.errors = [{instancePath:instancePath+"/plugins/cpuTimeMs",schemaPath:"#/properties/plugins/properties/cpuTimeMs/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"}];
return false;
}
else {
if(data24 < 10 || isNaN(data24)){
validate10.errors = [{instancePath:instancePath+"/plugins/cpuTimeMs",schemaPath:"#/properties/plugins/properties/cpuTimeMs/minimum",keyword:"minimum",params:{comparison: ">=", limit: 10},message:"must be >= 10"}];
return false;
}
}
}
}
var valid4 = _errs52 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data19.cpuTimeMsPerFile !== undefined){
let data25 = data19.cpuTimeMsPerFile;
const _errs54 = errors;
if(errors === _errs54){
if(typeof data25 == "number"){
if(data25 > 1000 || isNaN(data25)){
validate10.errors = [{instancePath:instancePath+"/plugins/cpuTimeMsPerFile",schemaPath:"#/properties/plugins/properties/cpuTimeMsPerFile/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000},message:"must be <= 1000"}];
return false;
}
else {
if(data25 < 0 || isNaN(data25)){
validate10.errors = [{instancePath:instancePath+"/plugins/cpuTimeMsPerFile",schemaPath:"#/properties/plugins/properties/cpuTimeMsPerFile/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
else {
validate10.errors = [{instancePath:instancePath+"/plugins/cpuTimeMsPerFile",schemaPath:"#/properties/plugins/properties/cpuTimeMsPerFile/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
}
var valid4 = _errs54 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data19.wallTimeMs !== undefined){
let data26 = data19.wallTimeMs;
const _errs56 = errors;
if(!((typeof data26 == "number") && (!(data26 % 1) && !isNaN(data26)))){
validate10.errors = [{instancePath:instancePath+"/plugins/wallTimeMs",schemaPath:"#/properties/plugins/properties/wallTimeMs/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs56){
if(typeof data26 == "number"){
if(data26 > 3600000 || isNaN(data26)){
validate10.errors = [{instancePath:instancePath+"/plugins/wallTimeMs",schemaPath:"#/properties/plugins/properties/wallTimeMs/maximum",keyword:"maximum",params:{comparison: "<=", limit: 3600000},message:"must be <= 3600000"}];
return false;
}
else {
if(data26 < 10 || isNaN(data26)){
validate10.errors = [{instancePath:instancePath+"/plugins/wallTimeMs",schemaPath:"#/properties/plugins/properties/wallTimeMs/minimum",keyword:"minimum",params:{comparison: ">=", limit: 10},message:"must be >= 10"}];
return false;
}
}
}
}
var valid4 = _errs56 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data19.wallTimeMsPerFile !== undefined){
let data27 = data19.wallTimeMsPerFile;
const _errs58 = errors;
if(errors === _errs58){
if(typeof data27 == "number"){
if(data27 > 1000 || isNaN(data27)){
validate10.errors = [{instancePath:instancePath+"/plugins/wallTimeMsPerFile",schemaPath:"#/properties/plugins/properties/wallTimeMsPerFile/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000},message:"must be <= 1000"}];
return false;
}
else {
if(data27 < 0 || isNaN(data27)){
validate10.errors = [{instancePath:instancePath+"/plugins/wallTimeMsPerFile",schemaPath:"#/properties/plugins/properties/wallTimeMsPerFile/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
else {
validate10.errors = [{instancePath:instancePath+"/plugins/wallTimeMsPerFile",schemaPath:"#/properties/plugins/properties/wallTimeMsPerFile/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
}
var valid4 = _errs58 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data19.loadTimeMs !== undefined){
let data28 = data19.loadTimeMs;
const _errs60 = errors;
if(!((typeof data28 == "number") && (!(data28 % 1) && !isNaN(data28)))){
validate10.errors = [{instancePath:instancePath+"/plugins/loadTimeMs",schemaPath:"#/properties/plugins/properties/loadTimeMs/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs60){
if(typeof data28 == "number"){
if(data28 > 600000 || isNaN(data28)){
validate10.errors = [{instancePath:instancePath+"/plugins/loadTimeMs",schemaPath:"#/properties/plugins/properties/loadTimeMs/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"}];
return false;
}
else {
if(data28 < 10 || isNaN(data28)){
validate10.errors = [{instancePath:instancePath+"/plugins/loadTimeMs",schemaPath:"#/properties/plugins/properties/loadTimeMs/minimum",keyword:"minimum",params:{comparison: ">=", limit: 10},message:"must be >= 10"}];
return false;
}
}
}
}
var valid4 = _errs60 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data19.maxCapabilityCalls !== undefined){
let data29 = data19.maxCapabilityCalls;
const _errs62 = errors;
if(!((typeof data29 == "number") && (!(data29 % 1) && !isNaN(data29)))){
validate10.errors = [{instancePath:instancePath+"/plugins/maxCapabilityCalls",schemaPath:"#/properties/plugins/properties/maxCapabilityCalls/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs62){
if(typeof data29 == "number"){
if(data29 > 10000000 || isNaN(data29)){
validate10.errors = [{instancePath:instancePath+"/plugins/maxCapabilityCalls",schemaPath:"#/properties/plugins/properties/maxCapabilityCalls/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000000},message:"must be <= 10000000"}];
return false;
}
else {
if(data29 < 1 || isNaN(data29)){
validate10.errors = [{instancePath:instancePath+"/plugins/maxCapabilityCalls",schemaPath:"#/properties/plugins/properties/maxCapabilityCalls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
var valid4 = _errs62 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data19.gitCommitGraph !== undefined){
const _errs64 = errors;
if(typeof data19.gitCommitGraph !== "boolean"){
validate10.errors = [{instancePath:instancePath+"/plugins/gitCommitGraph",schemaPath:"#/properties/plugins/properties/gitCommitGraph/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid4 = _errs64 === errors;
}
else {
var valid4 = true;
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate10.errors = [{instancePath:instancePath+"/plugins",schemaPath:"#/properties/plugins/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs41 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.layout !== undefined){
let data31 = data.layout;
const _errs66 = errors;
if(errors === _errs66){
if(data31 && typeof data31 == "object" && !Array.isArray(data31)){
const _errs68 = errors;
for(const key3 in data31){
if(!((key3 === "backend") || (key3 === "maxIterations"))){
validate10.errors = [{instancePath:instancePath+"/layout",schemaPath:"#/properties/layout/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties"}];
return false;
break;
}
}
if(_errs68 === errors){
if(data31.backend !== undefined){
let data32 = data31.backend;
const _errs69 = errors;
if(typeof data32 !== "string"){
validate10.errors = [{instancePath:instancePath+"/layout/backend",schemaPath:"#/properties/layout/properties/backend/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!((((((data32 === "auto") || (data32 === "tensorflow-gpu")) || (data32 === "tensorflow")) || (data32 === "webgpu")) || (data32 === "wasm")) || (data32 === "cpu"))){
validate10.errors = [{instancePath:instancePath+"/layout/backend",schemaPath:"#/properties/layout/properties/backend/enum",keyword:"enum",params:{allowedValues: schema11.properties.layout.properties.backend.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid6 = _errs69 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data31.maxIterations !== undefined){
let data33 = data31.maxIterations;
const _errs71 = errors;
if(!((typeof data33 == "number") && (!(data33 % 1) && !isNaN(data33)))){
validate10.errors = [{instancePath:instancePath+"/layout/maxIterations",schemaPath:"#/properties/layout/properties/maxIterations/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs71){
if(typeof data33 == "number"){
if(data33 > 1000000 || isNaN(data33)){
validate10.errors = [{instancePath:instancePath+"/layout/maxIterations",schemaPath:"#/properties/layout/properties/maxIterations/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000"}];
return false;
}
else {
if(data33 < 1 || isNaN(data33)){
validate10.errors = [{instancePath:instancePath+"/layout/maxIterations",schemaPath:"#/properties/layout/properties/maxIterations/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
var valid6 = _errs71 === errors;
}
else {
var valid6 = true;
}
}
}
}
else {
validate10.errors = [{instancePath:instancePath+"/layout",schemaPath:"#/properties/layout/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs66 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.index !== undefined){
let data34 = data.index;
const _errs73 = errors;
if(errors === _errs73){
if(data34 && typeof data34 == "object" && !Array.isArray(data34)){
const _errs75 = errors;
for(const key4 in data34){
if(!((key4 === "maxFileBytes") || (key4 === "cache"))){
validate10.errors = [{instancePath:instancePath+"/index",schemaPath:"#/properties/index/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4},message:"must NOT have additional properties"}];
return false;
break;
}
}
if(_errs75 === errors){
if(data34.maxFileBytes !== undefined){
let data35 = data34.maxFileBytes;
const _errs76 = errors;
if(!((typeof data35 == "number") && (!(data35 % 1) && !isNaN(data35)))){
validate10.errors = [{instancePath:instancePath+"/index/maxFileBytes",schemaPath:"#/properties/index/properties/maxFileBytes/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs76){
if(typeof data35 == "number"){
if(data35 < 1024 || isNaN(data35)){
validate10.errors = [{instancePath:instancePath+"/index/maxFileBytes",schemaPath:"#/properties/index/properties/maxFileBytes/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1024},message:"must be >= 1024"}];
return false;
}
}
}
var valid7 = _errs76 === errors;
}
else {
var valid7 = true;
}
if(valid7){
if(data34.cache !== undefined){
const _errs78 = errors;
if(typeof data34.cache !== "boolean"){
validate10.errors = [{instancePath:instancePath+"/index/cache",schemaPath:"#/properties/index/properties/cache/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid7 = _errs78 === errors;
}
else {
var valid7 = true;
}
}
}
}
else {
validate10.errors = [{instancePath:instancePath+"/index",schemaPath:"#/properties/index/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs73 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.rules !== undefined){
let data37 = data.rules;
const _errs80 = errors;
if(errors === _errs80){
if(data37 && typeof data37 == "object" && !Array.isArray(data37)){
const _errs82 = errors;
for(const key5 in data37){
if(!(key5 === "forbidden")){
validate10.errors = [{instancePath:instancePath+"/rules",schemaPath:"#/properties/rules/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5},message:"must NOT have additional properties"}];
return false;
break;
}
}
if(_errs82 === errors){
if(data37.forbidden !== undefined){
let data38 = data37.forbidden;
const _errs83 = errors;
if(errors === _errs83){
if(Array.isArray(data38)){
if(data38.length > 200){
validate10.errors = [{instancePath:instancePath+"/rules/forbidden",schemaPath:"#/properties/rules/properties/forbidden/maxItems",keyword:"maxItems",params:{limit: 200},message:"must NOT have more than 200 items"}];
return false;
}
}
else {
validate10.errors = [{instancePath:instancePath+"/rules/forbidden",schemaPath:"#/properties/rules/properties/forbidden/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
}
}
}
else {
validate10.errors = [{instancePath:instancePath+"/rules",schemaPath:"#/properties/rules/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs80 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate10.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate10.errors = vErrors;
return errors === 0;
}

const leaf0 = validate11;
const schema12 = {"minimum":0,"maximum":65535,"description":"TCP port of the HTTP server (0 picks a free one).","type":"integer"};

function validate11(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate11.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 65535 || isNaN(data)){
validate11.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 65535},message:"must be <= 65535"}];
return false;
}
else {
if(data < 0 || isNaN(data)){
validate11.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
}
validate11.errors = vErrors;
return errors === 0;
}

const leaf1 = validate12;
const schema13 = {"minLength":1,"description":"Address the HTTP server binds to.","type":"string"};

function validate12(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(typeof data === "string"){
if(func3(data) < 1){
validate12.errors = [{instancePath,schemaPath:"#/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate12.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
validate12.errors = vErrors;
return errors === 0;
}

const leaf2 = validate13;
const schema14 = {"minLength":1,"description":"Where Strata keeps its store; relative paths are taken from the repository root (from the working directory for flags and variables).","type":"string"};

function validate13(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(typeof data === "string"){
if(func3(data) < 1){
validate13.errors = [{instancePath,schemaPath:"#/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate13.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
validate13.errors = vErrors;
return errors === 0;
}

const leaf3 = validate14;
const schema15 = {"type":"string","enum":["fatal","error","warn","info","debug","trace","silent"],"description":"Least severe level written to the log."};

function validate14(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "string"){
validate14.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((((((data === "fatal") || (data === "error")) || (data === "warn")) || (data === "info")) || (data === "debug")) || (data === "trace")) || (data === "silent"))){
validate14.errors = [{instancePath,schemaPath:"#/enum",keyword:"enum",params:{allowedValues: schema15.enum},message:"must be equal to one of the allowed values"}];
return false;
}
validate14.errors = vErrors;
return errors === 0;
}

const leaf4 = validate15;
const schema16 = {"type":"string","enum":["auto","text","json"],"description":"How log lines are written: text (a readable line each), json (one JSON object each, for log collectors), or auto: text when the log goes to a terminal, json otherwise."};

function validate15(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "string"){
validate15.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((data === "auto") || (data === "text")) || (data === "json"))){
validate15.errors = [{instancePath,schemaPath:"#/enum",keyword:"enum",params:{allowedValues: schema16.enum},message:"must be equal to one of the allowed values"}];
return false;
}
validate15.errors = vErrors;
return errors === 0;
}

const leaf5 = validate16;
const schema17 = {"minimum":1024,"maximum":1073741824,"description":"Largest request body accepted, counted both as sent and after decompression.","type":"integer"};

function validate16(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate16.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 1073741824 || isNaN(data)){
validate16.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1073741824},message:"must be <= 1073741824"}];
return false;
}
else {
if(data < 1024 || isNaN(data)){
validate16.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1024},message:"must be >= 1024"}];
return false;
}
}
}
}
validate16.errors = vErrors;
return errors === 0;
}

const leaf6 = validate17;
const schema18 = {"description":"Answer with gzip when the client accepts it (the graph is compressed once per change).","type":"boolean"};

function validate17(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "boolean"){
validate17.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
validate17.errors = vErrors;
return errors === 0;
}

const leaf7 = validate18;
const schema19 = {"minimum":1000,"maximum":3600000,"description":"Time a client has to send a whole request.","type":"integer"};

function validate18(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate18.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 3600000 || isNaN(data)){
validate18.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 3600000},message:"must be <= 3600000"}];
return false;
}
else {
if(data < 1000 || isNaN(data)){
validate18.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1000},message:"must be >= 1000"}];
return false;
}
}
}
}
validate18.errors = vErrors;
return errors === 0;
}

const leaf8 = validate19;
const schema20 = {"minimum":1000,"maximum":3600000,"description":"Time a client has to send a request's line and headers (at most requestTimeoutMs); a connection that has not is answered 408 and closed.","type":"integer"};

function validate19(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate19.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 3600000 || isNaN(data)){
validate19.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 3600000},message:"must be <= 3600000"}];
return false;
}
else {
if(data < 1000 || isNaN(data)){
validate19.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1000},message:"must be >= 1000"}];
return false;
}
}
}
}
validate19.errors = vErrors;
return errors === 0;
}

const leaf9 = validate20;
const schema21 = {"minimum":1,"maximum":1000000,"description":"Connections held at once; one more is answered 503 and closed. Kept below the process's limit of open files.","type":"integer"};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate20.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 1000000 || isNaN(data)){
validate20.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000"}];
return false;
}
else {
if(data < 1 || isNaN(data)){
validate20.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
validate20.errors = vErrors;
return errors === 0;
}

const leaf10 = validate21;
const schema22 = {"minimum":1,"maximum":1000000,"description":"Connections held at once from one client address; one more from it is answered 503 and closed.","type":"integer"};

function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate21.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 1000000 || isNaN(data)){
validate21.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000"}];
return false;
}
else {
if(data < 1 || isNaN(data)){
validate21.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
validate21.errors = vErrors;
return errors === 0;
}

const leaf11 = validate22;
const schema23 = {"description":"Follow edits to the repository while serving.","type":"boolean"};

function validate22(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "boolean"){
validate22.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
validate22.errors = vErrors;
return errors === 0;
}

const leaf12 = validate23;
const schema24 = {"minLength":16,"description":"When set, every request must carry `Authorization: Bearer <token>` (at least 16 characters).","type":"string"};

function validate23(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(typeof data === "string"){
if(func3(data) < 16){
validate23.errors = [{instancePath,schemaPath:"#/minLength",keyword:"minLength",params:{limit: 16},message:"must NOT have fewer than 16 characters"}];
return false;
}
}
else {
validate23.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
validate23.errors = vErrors;
return errors === 0;
}

const leaf13 = validate24;
const schema25 = {"description":"Plugin development: watch plugin folders, rebuild and reload a plugin when it changes (strata serve --dev).","type":"boolean"};

function validate24(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "boolean"){
validate24.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
validate24.errors = vErrors;
return errors === 0;
}

const leaf14 = validate25;
const schema26 = {"maxItems":100,"description":"Host names the server answers to besides loopback names (localhost, *.localhost), IP addresses and the `host` it binds to: the name in the Host header a browser sends (others are refused, against DNS rebinding). A leading dot allows a domain and its subdomains (`.example.com`). Comma-separated in STRATA_ALLOWED_HOSTS.","type":"array","items":{"minLength":1,"maxLength":253,"pattern":"^\\.?[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$","type":"string"}};

function validate25(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(Array.isArray(data)){
if(data.length > 100){
validate25.errors = [{instancePath,schemaPath:"#/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"}];
return false;
}
else {
var valid0 = true;
const len0 = data.length;
for(let i0=0; i0<len0; i0++){
let data0 = data[i0];
const _errs1 = errors;
if(errors === _errs1){
if(typeof data0 === "string"){
if(func3(data0) > 253){
validate25.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/maxLength",keyword:"maxLength",params:{limit: 253},message:"must NOT have more than 253 characters"}];
return false;
}
else {
if(func3(data0) < 1){
validate25.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern0.test(data0)){
validate25.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/pattern",keyword:"pattern",params:{pattern: "^\\.?[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$"},message:"must match pattern \""+"^\\.?[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$"+"\""}];
return false;
}
}
}
}
else {
validate25.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs1 === errors;
if(!valid0){
break;
}
}
}
}
else {
validate25.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
validate25.errors = vErrors;
return errors === 0;
}

const leaf15 = validate26;
const schema27 = {"maxItems":100,"description":"Origins (`https://ui.example.com`) of web pages served elsewhere that may use the API: they get CORS headers and may send requests that change state, which pages of any other origin may not. Comma-separated in STRATA_CORS_ORIGINS.","type":"array","items":{"pattern":"^https?://[^/?#\\s]+$","type":"string"}};

function validate26(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(Array.isArray(data)){
if(data.length > 100){
validate26.errors = [{instancePath,schemaPath:"#/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"}];
return false;
}
else {
var valid0 = true;
const len0 = data.length;
for(let i0=0; i0<len0; i0++){
let data0 = data[i0];
const _errs1 = errors;
if(errors === _errs1){
if(typeof data0 === "string"){
if(!pattern1.test(data0)){
validate26.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/pattern",keyword:"pattern",params:{pattern: "^https?://[^/?#\\s]+$"},message:"must match pattern \""+"^https?://[^/?#\\s]+$"+"\""}];
return false;
}
}
else {
validate26.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs1 === errors;
if(!valid0){
break;
}
}
}
}
else {
validate26.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
validate26.errors = vErrors;
return errors === 0;
}

const leaf16 = validate27;
const schema28 = {"maxItems":100,"description":"Folders holding plugins (a plugin folder, or a folder of plugin folders); relative paths as for dataDir. Comma-separated in STRATA_PLUGINS_DIRECTORIES.","type":"array","items":{"minLength":1,"type":"string"}};

function validate27(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(Array.isArray(data)){
if(data.length > 100){
validate27.errors = [{instancePath,schemaPath:"#/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"}];
return false;
}
else {
var valid0 = true;
const len0 = data.length;
for(let i0=0; i0<len0; i0++){
let data0 = data[i0];
const _errs1 = errors;
if(errors === _errs1){
if(typeof data0 === "string"){
if(func3(data0) < 1){
validate27.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate27.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs1 === errors;
if(!valid0){
break;
}
}
}
}
else {
validate27.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
validate27.errors = vErrors;
return errors === 0;
}

const leaf17 = validate28;
const schema29 = {"description":"Load the built-in overlay plugins (git-activity, test-coverage, complexity, ownership, hotspots, change-coupling); off: only the plugins of directories.","type":"boolean"};

function validate28(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "boolean"){
validate28.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
validate28.errors = vErrors;
return errors === 0;
}

const leaf18 = validate29;
const schema30 = {"minimum":8,"maximum":4096,"description":"Heap limit of each plugin sandbox, in MiB.","type":"integer"};

function validate29(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate29.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 4096 || isNaN(data)){
validate29.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 4096},message:"must be <= 4096"}];
return false;
}
else {
if(data < 8 || isNaN(data)){
validate29.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 8},message:"must be >= 8"}];
return false;
}
}
}
}
validate29.errors = vErrors;
return errors === 0;
}

const leaf19 = validate30;
const schema31 = {"minimum":10,"maximum":600000,"description":"CPU time one apply may use, plus cpuTimeMsPerFile for each file of the graph.","type":"integer"};

function validate30(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate30.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 600000 || isNaN(data)){
validate30.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"}];
return false;
}
else {
if(data < 10 || isNaN(data)){
validate30.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 10},message:"must be >= 10"}];
return false;
}
}
}
}
validate30.errors = vErrors;
return errors === 0;
}

const leaf20 = validate31;
const schema32 = {"minimum":0,"maximum":1000,"description":"CPU time one apply may use for each file of the graph, on top of cpuTimeMs (0: cpuTimeMs alone, whatever the repository).","type":"number"};

function validate31(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(typeof data == "number"){
if(data > 1000 || isNaN(data)){
validate31.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000},message:"must be <= 1000"}];
return false;
}
else {
if(data < 0 || isNaN(data)){
validate31.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
else {
validate31.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
}
validate31.errors = vErrors;
return errors === 0;
}

const leaf21 = validate32;
const schema33 = {"minimum":10,"maximum":3600000,"description":"Wall time one apply may take, plus wallTimeMsPerFile for each file of the graph, not counting the time it waits on the host's capabilities (git, file reads).","type":"integer"};

function validate32(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate32.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 3600000 || isNaN(data)){
validate32.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 3600000},message:"must be <= 3600000"}];
return false;
}
else {
if(data < 10 || isNaN(data)){
validate32.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 10},message:"must be >= 10"}];
return false;
}
}
}
}
validate32.errors = vErrors;
return errors === 0;
}

const leaf22 = validate33;
const schema34 = {"minimum":0,"maximum":1000,"description":"Wall time one apply may take for each file of the graph, on top of wallTimeMs (0: wallTimeMs alone, whatever the repository).","type":"number"};

function validate33(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(typeof data == "number"){
if(data > 1000 || isNaN(data)){
validate33.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000},message:"must be <= 1000"}];
return false;
}
else {
if(data < 0 || isNaN(data)){
validate33.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
else {
validate33.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "number"},message:"must be number"}];
return false;
}
}
validate33.errors = vErrors;
return errors === 0;
}

const leaf23 = validate34;
const schema35 = {"minimum":10,"maximum":600000,"description":"Time loading a plugin may take.","type":"integer"};

function validate34(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate34.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 600000 || isNaN(data)){
validate34.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"}];
return false;
}
else {
if(data < 10 || isNaN(data)){
validate34.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 10},message:"must be >= 10"}];
return false;
}
}
}
}
validate34.errors = vErrors;
return errors === 0;
}

const leaf24 = validate35;
const schema36 = {"minimum":1,"maximum":10000000,"description":"Capability calls one apply may make.","type":"integer"};

function validate35(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate35.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 10000000 || isNaN(data)){
validate35.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000000},message:"must be <= 10000000"}];
return false;
}
else {
if(data < 1 || isNaN(data)){
validate35.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
validate35.errors = vErrors;
return errors === 0;
}

const leaf25 = validate36;
const schema37 = {"description":"Write git's commit-graph with changed-path filters into the repository's .git before blaming (as git maintenance does): blame gets several times faster.","type":"boolean"};

function validate36(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "boolean"){
validate36.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
validate36.errors = vErrors;
return errors === 0;
}

const leaf26 = validate37;
const schema38 = {"type":"string","enum":["auto","tensorflow-gpu","tensorflow","webgpu","wasm","cpu"],"description":"TensorFlow.js backend of the layout: auto takes the first that loads of native TensorFlow on a GPU, native TensorFlow, WebGPU on a GPU, wasm, cpu (webgpu by name also takes a software adapter)."};

function validate37(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "string"){
validate37.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!((((((data === "auto") || (data === "tensorflow-gpu")) || (data === "tensorflow")) || (data === "webgpu")) || (data === "wasm")) || (data === "cpu"))){
validate37.errors = [{instancePath,schemaPath:"#/enum",keyword:"enum",params:{allowedValues: schema38.enum},message:"must be equal to one of the allowed values"}];
return false;
}
validate37.errors = vErrors;
return errors === 0;
}

const leaf27 = validate38;
const schema39 = {"minimum":1,"maximum":1000000,"description":"Largest `iterations` a layout computation accepts.","type":"integer"};

function validate38(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate38.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 1000000 || isNaN(data)){
validate38.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000"}];
return false;
}
else {
if(data < 1 || isNaN(data)){
validate38.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
validate38.errors = vErrors;
return errors === 0;
}

const leaf28 = validate39;
const schema40 = {"minimum":1024,"description":"Files larger than this are graph nodes but are not parsed for imports.","type":"integer"};

function validate39(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate39.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data < 1024 || isNaN(data)){
validate39.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1024},message:"must be >= 1024"}];
return false;
}
}
}
validate39.errors = vErrors;
return errors === 0;
}

const leaf29 = validate40;
const schema41 = {"description":"Keep what was read of each file in the data directory, so that the next start reads only files changed since (by size, modification and change time, inode), and the last graph, which a start serves as it is when nothing it was made from changed.","type":"boolean"};

function validate40(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "boolean"){
validate40.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
validate40.errors = vErrors;
return errors === 0;
}

/** Checks a whole settings object: a configuration file, or the flags. */
export const validateSettings = settings as unknown as ValidateFunction;

/** Each setting one `STRATA_*` variable sets: its path in the settings, its JSON type, and a check of one value. */
export const SETTING_LEAVES: ReadonlyArray<{ path: readonly string[]; type: string; validate: ValidateFunction }> = [
  { path: ["port"], type: "integer", validate: leaf0 as unknown as ValidateFunction },
  { path: ["host"], type: "string", validate: leaf1 as unknown as ValidateFunction },
  { path: ["dataDir"], type: "string", validate: leaf2 as unknown as ValidateFunction },
  { path: ["logLevel"], type: "string", validate: leaf3 as unknown as ValidateFunction },
  { path: ["logFormat"], type: "string", validate: leaf4 as unknown as ValidateFunction },
  { path: ["maxBodyBytes"], type: "integer", validate: leaf5 as unknown as ValidateFunction },
  { path: ["compressResponses"], type: "boolean", validate: leaf6 as unknown as ValidateFunction },
  { path: ["requestTimeoutMs"], type: "integer", validate: leaf7 as unknown as ValidateFunction },
  { path: ["headersTimeoutMs"], type: "integer", validate: leaf8 as unknown as ValidateFunction },
  { path: ["maxConnections"], type: "integer", validate: leaf9 as unknown as ValidateFunction },
  { path: ["maxConnectionsPerAddress"], type: "integer", validate: leaf10 as unknown as ValidateFunction },
  { path: ["watch"], type: "boolean", validate: leaf11 as unknown as ValidateFunction },
  { path: ["authToken"], type: "string", validate: leaf12 as unknown as ValidateFunction },
  { path: ["dev"], type: "boolean", validate: leaf13 as unknown as ValidateFunction },
  { path: ["allowedHosts"], type: "array", validate: leaf14 as unknown as ValidateFunction },
  { path: ["cors","origins"], type: "array", validate: leaf15 as unknown as ValidateFunction },
  { path: ["plugins","directories"], type: "array", validate: leaf16 as unknown as ValidateFunction },
  { path: ["plugins","builtIns"], type: "boolean", validate: leaf17 as unknown as ValidateFunction },
  { path: ["plugins","memoryMb"], type: "integer", validate: leaf18 as unknown as ValidateFunction },
  { path: ["plugins","cpuTimeMs"], type: "integer", validate: leaf19 as unknown as ValidateFunction },
  { path: ["plugins","cpuTimeMsPerFile"], type: "number", validate: leaf20 as unknown as ValidateFunction },
  { path: ["plugins","wallTimeMs"], type: "integer", validate: leaf21 as unknown as ValidateFunction },
  { path: ["plugins","wallTimeMsPerFile"], type: "number", validate: leaf22 as unknown as ValidateFunction },
  { path: ["plugins","loadTimeMs"], type: "integer", validate: leaf23 as unknown as ValidateFunction },
  { path: ["plugins","maxCapabilityCalls"], type: "integer", validate: leaf24 as unknown as ValidateFunction },
  { path: ["plugins","gitCommitGraph"], type: "boolean", validate: leaf25 as unknown as ValidateFunction },
  { path: ["layout","backend"], type: "string", validate: leaf26 as unknown as ValidateFunction },
  { path: ["layout","maxIterations"], type: "integer", validate: leaf27 as unknown as ValidateFunction },
  { path: ["index","maxFileBytes"], type: "integer", validate: leaf28 as unknown as ValidateFunction },
  { path: ["index","cache"], type: "boolean", validate: leaf29 as unknown as ValidateFunction },
];
