// @ts-nocheck -- Ajv's generated code; the exports at the end are typed.
// Written by host/scripts/generate-settings-validator.ts from src/config/settings-schema.ts: do not edit.
import type { ValidateFunction } from 'ajv';
import ajvRuntime0 from 'ajv/dist/runtime/ucs2length.js';
const settings = validate10;
const schema11 = {"additionalProperties":false,"type":"object","properties":{"port":{"minimum":0,"maximum":65535,"description":"TCP port of the HTTP server (0 picks a free one).","type":"integer"},"host":{"minLength":1,"description":"Address the HTTP server binds to.","type":"string"},"dataDir":{"minLength":1,"description":"Where Strata keeps its store; relative paths are taken from the repository root (from the working directory for flags and variables).","type":"string"},"logLevel":{"type":"string","enum":["fatal","error","warn","info","debug","trace","silent"],"description":"Least severe level written to the log."},"maxBodyBytes":{"minimum":1024,"maximum":1073741824,"description":"Largest request body accepted, counted both as sent and after decompression.","type":"integer"},"compressResponses":{"description":"Answer with gzip when the client accepts it (the graph is compressed once per change).","type":"boolean"},"requestTimeoutMs":{"minimum":1000,"maximum":3600000,"description":"Time a client has to send a whole request.","type":"integer"},"watch":{"description":"Follow edits to the repository while serving.","type":"boolean"},"authToken":{"minLength":16,"description":"When set, every request must carry `Authorization: Bearer <token>` (at least 16 characters).","type":"string"},"dev":{"description":"Plugin development: watch plugin folders, rebuild and reload a plugin when it changes (strata serve --dev).","type":"boolean"},"allowedHosts":{"maxItems":100,"description":"Host names the server answers to besides loopback names (localhost, *.localhost), IP addresses and the `host` it binds to: the name in the Host header a browser sends (others are refused, against DNS rebinding). A leading dot allows a domain and its subdomains (`.example.com`). Comma-separated in STRATA_ALLOWED_HOSTS.","type":"array","items":{"minLength":1,"maxLength":253,"pattern":"^\\.?[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$","type":"string"}},"cors":{"additionalProperties":false,"type":"object","properties":{"origins":{"maxItems":100,"description":"Origins (`https://ui.example.com`) of web pages served elsewhere that may use the API: they get CORS headers and may send requests that change state, which pages of any other origin may not. Comma-separated in STRATA_CORS_ORIGINS.","type":"array","items":{"pattern":"^https?://[^/?#\\s]+$","type":"string"}}}},"plugins":{"additionalProperties":false,"type":"object","properties":{"directories":{"maxItems":100,"description":"Folders holding plugins (a plugin folder, or a folder of plugin folders); relative paths as for dataDir. Comma-separated in STRATA_PLUGINS_DIRECTORIES.","type":"array","items":{"minLength":1,"type":"string"}},"memoryMb":{"minimum":8,"maximum":4096,"description":"Heap limit of each plugin sandbox, in MiB.","type":"integer"},"cpuTimeMs":{"minimum":10,"maximum":600000,"description":"CPU time one apply may use.","type":"integer"},"wallTimeMs":{"minimum":10,"maximum":3600000,"description":"Wall time one apply may take, capability calls included.","type":"integer"},"loadTimeMs":{"minimum":10,"maximum":600000,"description":"Time loading a plugin may take.","type":"integer"},"maxCapabilityCalls":{"minimum":1,"maximum":10000000,"description":"Capability calls one apply may make.","type":"integer"},"gitCommitGraph":{"description":"Write git's commit-graph with changed-path filters into the repository's .git before blaming (as git maintenance does): blame gets several times faster.","type":"boolean"}}},"layout":{"additionalProperties":false,"type":"object","properties":{"backend":{"type":"string","enum":["auto","tensorflow-gpu","tensorflow","wasm","cpu"],"description":"TensorFlow.js backend of the layout: auto takes the first that loads of GPU, native, wasm, cpu."},"maxIterations":{"minimum":1,"maximum":1000000,"description":"Largest `iterations` a layout computation accepts.","type":"integer"}}},"index":{"additionalProperties":false,"type":"object","properties":{"maxFileBytes":{"minimum":1024,"description":"Files larger than this are graph nodes but are not parsed for imports.","type":"integer"},"cache":{"description":"Keep what was read of each file in the data directory, so that the next start reads only files changed since (by size, modification and change time, inode).","type":"boolean"}}}}};
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
if(data.maxBodyBytes !== undefined){
let data4 = data.maxBodyBytes;
const _errs10 = errors;
if(!((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4)))){
validate10.errors = [{instancePath:instancePath+"/maxBodyBytes",schemaPath:"#/properties/maxBodyBytes/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs10){
if(typeof data4 == "number"){
if(data4 > 1073741824 || isNaN(data4)){
validate10.errors = [{instancePath:instancePath+"/maxBodyBytes",schemaPath:"#/properties/maxBodyBytes/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1073741824},message:"must be <= 1073741824"}];
return false;
}
else {
if(data4 < 1024 || isNaN(data4)){
validate10.errors = [{instancePath:instancePath+"/maxBodyBytes",schemaPath:"#/properties/maxBodyBytes/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1024},message:"must be >= 1024"}];
return false;
}
}
}
}
var valid0 = _errs10 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.compressResponses !== undefined){
const _errs12 = errors;
if(typeof data.compressResponses !== "boolean"){
validate10.errors = [{instancePath:instancePath+"/compressResponses",schemaPath:"#/properties/compressResponses/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid0 = _errs12 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.requestTimeoutMs !== undefined){
let data6 = data.requestTimeoutMs;
const _errs14 = errors;
if(!((typeof data6 == "number") && (!(data6 % 1) && !isNaN(data6)))){
validate10.errors = [{instancePath:instancePath+"/requestTimeoutMs",schemaPath:"#/properties/requestTimeoutMs/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs14){
if(typeof data6 == "number"){
if(data6 > 3600000 || isNaN(data6)){
validate10.errors = [{instancePath:instancePath+"/requestTimeoutMs",schemaPath:"#/properties/requestTimeoutMs/maximum",keyword:"maximum",params:{comparison: "<=", limit: 3600000},message:"must be <= 3600000"}];
return false;
}
else {
if(data6 < 1000 || isNaN(data6)){
validate10.errors = [{instancePath:instancePath+"/requestTimeoutMs",schemaPath:"#/properties/requestTimeoutMs/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1000},message:"must be >= 1000"}];
return false;
}
}
}
}
var valid0 = _errs14 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.watch !== undefined){
const _errs16 = errors;
if(typeof data.watch !== "boolean"){
validate10.errors = [{instancePath:instancePath+"/watch",schemaPath:"#/properties/watch/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid0 = _errs16 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.authToken !== undefined){
let data8 = data.authToken;
const _errs18 = errors;
if(errors === _errs18){
if(typeof data8 === "string"){
if(func3(data8) < 16){
validate10.errors = [{instancePath:instancePath+"/authToken",schemaPath:"#/properties/authToken/minLength",keyword:"minLength",params:{limit: 16},message:"must NOT have fewer than 16 characters"}];
return false;
}
}
else {
validate10.errors = [{instancePath:instancePath+"/authToken",schemaPath:"#/properties/authToken/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs18 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.dev !== undefined){
const _errs20 = errors;
if(typeof data.dev !== "boolean"){
validate10.errors = [{instancePath:instancePath+"/dev",schemaPath:"#/properties/dev/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid0 = _errs20 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.allowedHosts !== undefined){
let data10 = data.allowedHosts;
const _errs22 = errors;
if(errors === _errs22){
if(Array.isArray(data10)){
if(data10.length > 100){
validate10.errors = [{instancePath:instancePath+"/allowedHosts",schemaPath:"#/properties/allowedHosts/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"}];
return false;
}
else {
var valid1 = true;
const len0 = data10.length;
for(let i0=0; i0<len0; i0++){
let data11 = data10[i0];
const _errs24 = errors;
if(errors === _errs24){
if(typeof data11 === "string"){
if(func3(data11) > 253){
validate10.errors = [{instancePath:instancePath+"/allowedHosts/" + i0,schemaPath:"#/properties/allowedHosts/items/maxLength",keyword:"maxLength",params:{limit: 253},message:"must NOT have more than 253 characters"}];
return false;
}
else {
if(func3(data11) < 1){
validate10.errors = [{instancePath:instancePath+"/allowedHosts/" + i0,schemaPath:"#/properties/allowedHosts/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern0.test(data11)){
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
var valid1 = _errs24 === errors;
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
var valid0 = _errs22 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.cors !== undefined){
let data12 = data.cors;
const _errs26 = errors;
if(errors === _errs26){
if(data12 && typeof data12 == "object" && !Array.isArray(data12)){
const _errs28 = errors;
for(const key1 in data12){
if(!(key1 === "origins")){
validate10.errors = [{instancePath:instancePath+"/cors",schemaPath:"#/properties/cors/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"}];
return false;
break;
}
}
if(_errs28 === errors){
if(data12.origins !== undefined){
let data13 = data12.origins;
const _errs29 = errors;
if(errors === _errs29){
if(Array.isArray(data13)){
if(data13.length > 100){
validate10.errors = [{instancePath:instancePath+"/cors/origins",schemaPath:"#/properties/cors/properties/origins/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"}];
return false;
}
else {
var valid3 = true;
const len1 = data13.length;
for(let i1=0; i1<len1; i1++){
let data14 = data13[i1];
const _errs31 = errors;
if(errors === _errs31){
if(typeof data14 === "string"){
if(!pattern1.test(data14)){
validate10.errors = [{instancePath:instancePath+"/cors/origins/" + i1,schemaPath:"#/properties/cors/properties/origins/items/pattern",keyword:"pattern",params:{pattern: "^https?://[^/?#\\s]+$"},message:"must match pattern \""+"^https?://[^/?#\\s]+$"+"\""}];
return false;
}
}
else {
validate10.errors = [{instancePath:instancePath+"/cors/origins/" + i1,schemaPath:"#/properties/cors/properties/origins/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid3 = _errs31 === errors;
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
var valid0 = _errs26 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.plugins !== undefined){
let data15 = data.plugins;
const _errs33 = errors;
if(errors === _errs33){
if(data15 && typeof data15 == "object" && !Array.isArray(data15)){
const _errs35 = errors;
for(const key2 in data15){
if(!(((((((key2 === "directories") || (key2 === "memoryMb")) || (key2 === "cpuTimeMs")) || (key2 === "wallTimeMs")) || (key2 === "loadTimeMs")) || (key2 === "maxCapabilityCalls")) || (key2 === "gitCommitGraph"))){
validate10.errors = [{instancePath:instancePath+"/plugins",schemaPath:"#/properties/plugins/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties"}];
return false;
break;
}
}
if(_errs35 === errors){
if(data15.directories !== undefined){
let data16 = data15.directories;
const _errs36 = errors;
if(errors === _errs36){
if(Array.isArray(data16)){
if(data16.length > 100){
validate10.errors = [{instancePath:instancePath+"/plugins/directories",schemaPath:"#/properties/plugins/properties/directories/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"}];
return false;
}
else {
var valid5 = true;
const len2 = data16.length;
for(let i2=0; i2<len2; i2++){
let data17 = data16[i2];
const _errs38 = errors;
if(errors === _errs38){
if(typeof data17 === "string"){
if(func3(data17) < 1){
validate10.errors = [{instancePath:instancePath+"/plugins/directories/" + i2,schemaPath:"#/properties/plugins/properties/directories/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate10.errors = [{instancePath:instancePath+"/plugins/directories/" + i2,schemaPath:"#/properties/plugins/properties/directories/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid5 = _errs38 === errors;
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
var valid4 = _errs36 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data15.memoryMb !== undefined){
let data18 = data15.memoryMb;
const _errs40 = errors;
if(!((typeof data18 == "number") && (!(data18 % 1) && !isNaN(data18)))){
validate10.errors = [{instancePath:instancePath+"/plugins/memoryMb",schemaPath:"#/properties/plugins/properties/memoryMb/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs40){
if(typeof data18 == "number"){
if(data18 > 4096 || isNaN(data18)){
validate10.errors = [{instancePath:instancePath+"/plugins/memoryMb",schemaPath:"#/properties/plugins/properties/memoryMb/maximum",keyword:"maximum",params:{comparison: "<=", limit: 4096},message:"must be <= 4096"}];
return false;
}
else {
if(data18 < 8 || isNaN(data18)){
validate10.errors = [{instancePath:instancePath+"/plugins/memoryMb",schemaPath:"#/properties/plugins/properties/memoryMb/minimum",keyword:"minimum",params:{comparison: ">=", limit: 8},message:"must be >= 8"}];
return false;
}
}
}
}
var valid4 = _errs40 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data15.cpuTimeMs !== undefined){
let data19 = data15.cpuTimeMs;
const _errs42 = errors;
if(!((typeof data19 == "number") && (!(data19 % 1) && !isNaN(data19)))){
validate10.errors = [{instancePath:instancePath+"/plugins/cpuTimeMs",schemaPath:"#/properties/plugins/properties/cpuTimeMs/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs42){
if(typeof data19 == "number"){
if(data19 > 600000 || isNaN(data19)){
validate10.errors = [{instancePath:instancePath+"/plugins/cpuTimeMs",schemaPath:"#/properties/plugins/properties/cpuTimeMs/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"}];
return false;
}
else {
if(data19 < 10 || isNaN(data19)){
validate10.errors = [{instancePath:instancePath+"/plugins/cpuTimeMs",schemaPath:"#/properties/plugins/properties/cpuTimeMs/minimum",keyword:"minimum",params:{comparison: ">=", limit: 10},message:"must be >= 10"}];
return false;
}
}
}
}
var valid4 = _errs42 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data15.wallTimeMs !== undefined){
let data20 = data15.wallTimeMs;
const _errs44 = errors;
if(!((typeof data20 == "number") && (!(data20 % 1) && !isNaN(data20)))){
validate10.errors = [{instancePath:instancePath+"/plugins/wallTimeMs",schemaPath:"#/properties/plugins/properties/wallTimeMs/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs44){
if(typeof data20 == "number"){
if(data20 > 3600000 || isNaN(data20)){
validate10.errors = [{instancePath:instancePath+"/plugins/wallTimeMs",schemaPath:"#/properties/plugins/properties/wallTimeMs/maximum",keyword:"maximum",params:{comparison: "<=", limit: 3600000},message:"must be <= 3600000"}];
return false;
}
else {
if(data20 < 10 || isNaN(data20)){
validate10.errors = [{instancePath:instancePath+"/plugins/wallTimeMs",schemaPath:"#/properties/plugins/properties/wallTimeMs/minimum",keyword:"minimum",params:{comparison: ">=", limit: 10},message:"must be >= 10"}];
return false;
}
}
}
}
var valid4 = _errs44 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data15.loadTimeMs !== undefined){
let data21 = data15.loadTimeMs;
const _errs46 = errors;
if(!((typeof data21 == "number") && (!(data21 % 1) && !isNaN(data21)))){
validate10.errors = [{instancePath:instancePath+"/plugins/loadTimeMs",schemaPath:"#/properties/plugins/properties/loadTimeMs/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs46){
if(typeof data21 == "number"){
if(data21 > 600000 || isNaN(data21)){
validate10.errors = [{instancePath:instancePath+"/plugins/loadTimeMs",schemaPath:"#/properties/plugins/properties/loadTimeMs/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"}];
return false;
}
else {
if(data21 < 10 || isNaN(data21)){
validate10.errors = [{instancePath:instancePath+"/plugins/loadTimeMs",schemaPath:"#/properties/plugins/properties/loadTimeMs/minimum",keyword:"minimum",params:{comparison: ">=", limit: 10},message:"must be >= 10"}];
return false;
}
}
}
}
var valid4 = _errs46 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data15.maxCapabilityCalls !== undefined){
let data22 = data15.maxCapabilityCalls;
const _errs48 = errors;
if(!((typeof data22 == "number") && (!(data22 % 1) && !isNaN(data22)))){
validate10.errors = [{instancePath:instancePath+"/plugins/maxCapabilityCalls",schemaPath:"#/properties/plugins/properties/maxCapabilityCalls/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs48){
if(typeof data22 == "number"){
if(data22 > 10000000 || isNaN(data22)){
validate10.errors = [{instancePath:instancePath+"/plugins/maxCapabilityCalls",schemaPath:"#/properties/plugins/properties/maxCapabilityCalls/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000000},message:"must be <= 10000000"}];
return false;
}
else {
if(data22 < 1 || isNaN(data22)){
validate10.errors = [{instancePath:instancePath+"/plugins/maxCapabilityCalls",schemaPath:"#/properties/plugins/properties/maxCapabilityCalls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
var valid4 = _errs48 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data15.gitCommitGraph !== undefined){
const _errs50 = errors;
if(typeof data15.gitCommitGraph !== "boolean"){
validate10.errors = [{instancePath:instancePath+"/plugins/gitCommitGraph",schemaPath:"#/properties/plugins/properties/gitCommitGraph/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid4 = _errs50 === errors;
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
else {
validate10.errors = [{instancePath:instancePath+"/plugins",schemaPath:"#/properties/plugins/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs33 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.layout !== undefined){
let data24 = data.layout;
const _errs52 = errors;
if(errors === _errs52){
if(data24 && typeof data24 == "object" && !Array.isArray(data24)){
const _errs54 = errors;
for(const key3 in data24){
if(!((key3 === "backend") || (key3 === "maxIterations"))){
validate10.errors = [{instancePath:instancePath+"/layout",schemaPath:"#/properties/layout/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties"}];
return false;
break;
}
}
if(_errs54 === errors){
if(data24.backend !== undefined){
let data25 = data24.backend;
const _errs55 = errors;
if(typeof data25 !== "string"){
validate10.errors = [{instancePath:instancePath+"/layout/backend",schemaPath:"#/properties/layout/properties/backend/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((((data25 === "auto") || (data25 === "tensorflow-gpu")) || (data25 === "tensorflow")) || (data25 === "wasm")) || (data25 === "cpu"))){
validate10.errors = [{instancePath:instancePath+"/layout/backend",schemaPath:"#/properties/layout/properties/backend/enum",keyword:"enum",params:{allowedValues: schema11.properties.layout.properties.backend.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid6 = _errs55 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data24.maxIterations !== undefined){
let data26 = data24.maxIterations;
const _errs57 = errors;
if(!((typeof data26 == "number") && (!(data26 % 1) && !isNaN(data26)))){
validate10.errors = [{instancePath:instancePath+"/layout/maxIterations",schemaPath:"#/properties/layout/properties/maxIterations/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs57){
if(typeof data26 == "number"){
if(data26 > 1000000 || isNaN(data26)){
validate10.errors = [{instancePath:instancePath+"/layout/maxIterations",schemaPath:"#/properties/layout/properties/maxIterations/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000"}];
return false;
}
else {
if(data26 < 1 || isNaN(data26)){
validate10.errors = [{instancePath:instancePath+"/layout/maxIterations",schemaPath:"#/properties/layout/properties/maxIterations/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
var valid6 = _errs57 === errors;
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
var valid0 = _errs52 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.index !== undefined){
let data27 = data.index;
const _errs59 = errors;
if(errors === _errs59){
if(data27 && typeof data27 == "object" && !Array.isArray(data27)){
const _errs61 = errors;
for(const key4 in data27){
if(!((key4 === "maxFileBytes") || (key4 === "cache"))){
validate10.errors = [{instancePath:instancePath+"/index",schemaPath:"#/properties/index/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4},message:"must NOT have additional properties"}];
return false;
break;
}
}
if(_errs61 === errors){
if(data27.maxFileBytes !== undefined){
let data28 = data27.maxFileBytes;
const _errs62 = errors;
if(!((typeof data28 == "number") && (!(data28 % 1) && !isNaN(data28)))){
validate10.errors = [{instancePath:instancePath+"/index/maxFileBytes",schemaPath:"#/properties/index/properties/maxFileBytes/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs62){
if(typeof data28 == "number"){
if(data28 < 1024 || isNaN(data28)){
validate10.errors = [{instancePath:instancePath+"/index/maxFileBytes",schemaPath:"#/properties/index/properties/maxFileBytes/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1024},message:"must be >= 1024"}];
return false;
}
}
}
var valid7 = _errs62 === errors;
}
else {
var valid7 = true;
}
if(valid7){
if(data27.cache !== undefined){
const _errs64 = errors;
if(typeof data27.cache !== "boolean"){
validate10.errors = [{instancePath:instancePath+"/index/cache",schemaPath:"#/properties/index/properties/cache/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid7 = _errs64 === errors;
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
var valid0 = _errs59 === errors;
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
const schema16 = {"minimum":1024,"maximum":1073741824,"description":"Largest request body accepted, counted both as sent and after decompression.","type":"integer"};

function validate15(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate15.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 1073741824 || isNaN(data)){
validate15.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1073741824},message:"must be <= 1073741824"}];
return false;
}
else {
if(data < 1024 || isNaN(data)){
validate15.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1024},message:"must be >= 1024"}];
return false;
}
}
}
}
validate15.errors = vErrors;
return errors === 0;
}

const leaf5 = validate16;
const schema17 = {"description":"Answer with gzip when the client accepts it (the graph is compressed once per change).","type":"boolean"};

function validate16(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "boolean"){
validate16.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
validate16.errors = vErrors;
return errors === 0;
}

const leaf6 = validate17;
const schema18 = {"minimum":1000,"maximum":3600000,"description":"Time a client has to send a whole request.","type":"integer"};

function validate17(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate17.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 3600000 || isNaN(data)){
validate17.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 3600000},message:"must be <= 3600000"}];
return false;
}
else {
if(data < 1000 || isNaN(data)){
validate17.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1000},message:"must be >= 1000"}];
return false;
}
}
}
}
validate17.errors = vErrors;
return errors === 0;
}

const leaf7 = validate18;
const schema19 = {"description":"Follow edits to the repository while serving.","type":"boolean"};

function validate18(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "boolean"){
validate18.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
validate18.errors = vErrors;
return errors === 0;
}

const leaf8 = validate19;
const schema20 = {"minLength":16,"description":"When set, every request must carry `Authorization: Bearer <token>` (at least 16 characters).","type":"string"};

function validate19(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(typeof data === "string"){
if(func3(data) < 16){
validate19.errors = [{instancePath,schemaPath:"#/minLength",keyword:"minLength",params:{limit: 16},message:"must NOT have fewer than 16 characters"}];
return false;
}
}
else {
validate19.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
validate19.errors = vErrors;
return errors === 0;
}

const leaf9 = validate20;
const schema21 = {"description":"Plugin development: watch plugin folders, rebuild and reload a plugin when it changes (strata serve --dev).","type":"boolean"};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "boolean"){
validate20.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
validate20.errors = vErrors;
return errors === 0;
}

const leaf10 = validate21;
const schema22 = {"maxItems":100,"description":"Host names the server answers to besides loopback names (localhost, *.localhost), IP addresses and the `host` it binds to: the name in the Host header a browser sends (others are refused, against DNS rebinding). A leading dot allows a domain and its subdomains (`.example.com`). Comma-separated in STRATA_ALLOWED_HOSTS.","type":"array","items":{"minLength":1,"maxLength":253,"pattern":"^\\.?[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$","type":"string"}};

function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(Array.isArray(data)){
if(data.length > 100){
validate21.errors = [{instancePath,schemaPath:"#/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"}];
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
validate21.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/maxLength",keyword:"maxLength",params:{limit: 253},message:"must NOT have more than 253 characters"}];
return false;
}
else {
if(func3(data0) < 1){
validate21.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern0.test(data0)){
validate21.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/pattern",keyword:"pattern",params:{pattern: "^\\.?[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$"},message:"must match pattern \""+"^\\.?[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$"+"\""}];
return false;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
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
validate21.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
validate21.errors = vErrors;
return errors === 0;
}

const leaf11 = validate22;
const schema23 = {"maxItems":100,"description":"Origins (`https://ui.example.com`) of web pages served elsewhere that may use the API: they get CORS headers and may send requests that change state, which pages of any other origin may not. Comma-separated in STRATA_CORS_ORIGINS.","type":"array","items":{"pattern":"^https?://[^/?#\\s]+$","type":"string"}};

function validate22(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(Array.isArray(data)){
if(data.length > 100){
validate22.errors = [{instancePath,schemaPath:"#/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"}];
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
validate22.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/pattern",keyword:"pattern",params:{pattern: "^https?://[^/?#\\s]+$"},message:"must match pattern \""+"^https?://[^/?#\\s]+$"+"\""}];
return false;
}
}
else {
validate22.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
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
validate22.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
validate22.errors = vErrors;
return errors === 0;
}

const leaf12 = validate23;
const schema24 = {"maxItems":100,"description":"Folders holding plugins (a plugin folder, or a folder of plugin folders); relative paths as for dataDir. Comma-separated in STRATA_PLUGINS_DIRECTORIES.","type":"array","items":{"minLength":1,"type":"string"}};

function validate23(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(Array.isArray(data)){
if(data.length > 100){
validate23.errors = [{instancePath,schemaPath:"#/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"}];
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
validate23.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate23.errors = [{instancePath:instancePath+"/" + i0,schemaPath:"#/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
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
validate23.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
validate23.errors = vErrors;
return errors === 0;
}

const leaf13 = validate24;
const schema25 = {"minimum":8,"maximum":4096,"description":"Heap limit of each plugin sandbox, in MiB.","type":"integer"};

function validate24(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate24.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 4096 || isNaN(data)){
validate24.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 4096},message:"must be <= 4096"}];
return false;
}
else {
if(data < 8 || isNaN(data)){
validate24.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 8},message:"must be >= 8"}];
return false;
}
}
}
}
validate24.errors = vErrors;
return errors === 0;
}

const leaf14 = validate25;
const schema26 = {"minimum":10,"maximum":600000,"description":"CPU time one apply may use.","type":"integer"};

function validate25(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate25.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 600000 || isNaN(data)){
validate25.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"}];
return false;
}
else {
if(data < 10 || isNaN(data)){
validate25.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 10},message:"must be >= 10"}];
return false;
}
}
}
}
validate25.errors = vErrors;
return errors === 0;
}

const leaf15 = validate26;
const schema27 = {"minimum":10,"maximum":3600000,"description":"Wall time one apply may take, capability calls included.","type":"integer"};

function validate26(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate26.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 3600000 || isNaN(data)){
validate26.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 3600000},message:"must be <= 3600000"}];
return false;
}
else {
if(data < 10 || isNaN(data)){
validate26.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 10},message:"must be >= 10"}];
return false;
}
}
}
}
validate26.errors = vErrors;
return errors === 0;
}

const leaf16 = validate27;
const schema28 = {"minimum":10,"maximum":600000,"description":"Time loading a plugin may take.","type":"integer"};

function validate27(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate27.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 600000 || isNaN(data)){
validate27.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 600000},message:"must be <= 600000"}];
return false;
}
else {
if(data < 10 || isNaN(data)){
validate27.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 10},message:"must be >= 10"}];
return false;
}
}
}
}
validate27.errors = vErrors;
return errors === 0;
}

const leaf17 = validate28;
const schema29 = {"minimum":1,"maximum":10000000,"description":"Capability calls one apply may make.","type":"integer"};

function validate28(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate28.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 10000000 || isNaN(data)){
validate28.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000000},message:"must be <= 10000000"}];
return false;
}
else {
if(data < 1 || isNaN(data)){
validate28.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
validate28.errors = vErrors;
return errors === 0;
}

const leaf18 = validate29;
const schema30 = {"description":"Write git's commit-graph with changed-path filters into the repository's .git before blaming (as git maintenance does): blame gets several times faster.","type":"boolean"};

function validate29(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "boolean"){
validate29.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
validate29.errors = vErrors;
return errors === 0;
}

const leaf19 = validate30;
const schema31 = {"type":"string","enum":["auto","tensorflow-gpu","tensorflow","wasm","cpu"],"description":"TensorFlow.js backend of the layout: auto takes the first that loads of GPU, native, wasm, cpu."};

function validate30(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "string"){
validate30.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
if(!(((((data === "auto") || (data === "tensorflow-gpu")) || (data === "tensorflow")) || (data === "wasm")) || (data === "cpu"))){
validate30.errors = [{instancePath,schemaPath:"#/enum",keyword:"enum",params:{allowedValues: schema31.enum},message:"must be equal to one of the allowed values"}];
return false;
}
validate30.errors = vErrors;
return errors === 0;
}

const leaf20 = validate31;
const schema32 = {"minimum":1,"maximum":1000000,"description":"Largest `iterations` a layout computation accepts.","type":"integer"};

function validate31(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate31.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data > 1000000 || isNaN(data)){
validate31.errors = [{instancePath,schemaPath:"#/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000"}];
return false;
}
else {
if(data < 1 || isNaN(data)){
validate31.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
validate31.errors = vErrors;
return errors === 0;
}

const leaf21 = validate32;
const schema33 = {"minimum":1024,"description":"Files larger than this are graph nodes but are not parsed for imports.","type":"integer"};

function validate32(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (!(data % 1) && !isNaN(data)))){
validate32.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === 0){
if(typeof data == "number"){
if(data < 1024 || isNaN(data)){
validate32.errors = [{instancePath,schemaPath:"#/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1024},message:"must be >= 1024"}];
return false;
}
}
}
validate32.errors = vErrors;
return errors === 0;
}

const leaf22 = validate33;
const schema34 = {"description":"Keep what was read of each file in the data directory, so that the next start reads only files changed since (by size, modification and change time, inode).","type":"boolean"};

function validate33(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(typeof data !== "boolean"){
validate33.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
validate33.errors = vErrors;
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
  { path: ["maxBodyBytes"], type: "integer", validate: leaf4 as unknown as ValidateFunction },
  { path: ["compressResponses"], type: "boolean", validate: leaf5 as unknown as ValidateFunction },
  { path: ["requestTimeoutMs"], type: "integer", validate: leaf6 as unknown as ValidateFunction },
  { path: ["watch"], type: "boolean", validate: leaf7 as unknown as ValidateFunction },
  { path: ["authToken"], type: "string", validate: leaf8 as unknown as ValidateFunction },
  { path: ["dev"], type: "boolean", validate: leaf9 as unknown as ValidateFunction },
  { path: ["allowedHosts"], type: "array", validate: leaf10 as unknown as ValidateFunction },
  { path: ["cors","origins"], type: "array", validate: leaf11 as unknown as ValidateFunction },
  { path: ["plugins","directories"], type: "array", validate: leaf12 as unknown as ValidateFunction },
  { path: ["plugins","memoryMb"], type: "integer", validate: leaf13 as unknown as ValidateFunction },
  { path: ["plugins","cpuTimeMs"], type: "integer", validate: leaf14 as unknown as ValidateFunction },
  { path: ["plugins","wallTimeMs"], type: "integer", validate: leaf15 as unknown as ValidateFunction },
  { path: ["plugins","loadTimeMs"], type: "integer", validate: leaf16 as unknown as ValidateFunction },
  { path: ["plugins","maxCapabilityCalls"], type: "integer", validate: leaf17 as unknown as ValidateFunction },
  { path: ["plugins","gitCommitGraph"], type: "boolean", validate: leaf18 as unknown as ValidateFunction },
  { path: ["layout","backend"], type: "string", validate: leaf19 as unknown as ValidateFunction },
  { path: ["layout","maxIterations"], type: "integer", validate: leaf20 as unknown as ValidateFunction },
  { path: ["index","maxFileBytes"], type: "integer", validate: leaf21 as unknown as ValidateFunction },
  { path: ["index","cache"], type: "boolean", validate: leaf22 as unknown as ValidateFunction },
];
