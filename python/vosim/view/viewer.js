// vosim's run viewer: one plain ES module for the standalone page (Trajectory.to_html) and the
// notebook widget (vosim.view). A scene is `meta` (JSON: counts, times, geometry, bounds) plus one
// binary blob holding typed arrays at the offsets `meta.layout` gives (positions as float32, speeds
// as uint8 scaled to meta.speed_scale, ...). Agents are drawn with WebGL as point sprites (one
// draw call; a recorded run's frames are uploaded once, a live run's frame by frame); without WebGL,
// the plane falls back to a 2D canvas. Nothing is fetched from the network.

const TYPES = { float32: Float32Array, uint8: Uint8Array, int32: Int32Array };
const NEVER = 2147483647;
const BACKGROUND = "#fafafa";
const OBSTACLE_FILL = "#999999";
const OBSTACLE_EDGE = "#333333";
const OUTSIDE_FILL = "#d9d9d9";
const SINK_COLOR = "#009E73";
const ZONE_COLOR = "#56B4E9";
const GOAL_COLOR = "#404040";
const PLACE_COLOR = "#CC79A7";  // named places (a door, a measurement area): reddish purple, apart from every other mark
const SELECTED_COLOR = "#D55E00";
const STAGE_COLOR = "#8C510A";  // queues and waiting areas: brown, apart from the agents' colours
const SPEEDS = [0.25, 0.5, 1, 2, 4, 8];
// Colour maps as anchors, interpolated linearly (viridis for speed; a yellow-to-red ramp for density).
const MAPS = {
  speed: [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]],
  density: [[255, 237, 160], [254, 178, 76], [253, 141, 60], [240, 59, 32], [128, 0, 38]],
  arrival: [[230, 159, 0], [0, 114, 178]],
};
// Largest recording (positions' bytes) kept on the GPU whole; a larger one is uploaded frame by frame.
const RESIDENT_BYTES = 256e6;
// Agents per square metre at the top of the density colours.
const DENSITY_TOP = 6;
const MODES = ["speed", "arrival", "density", "agent"];

function mapColor(name, v) {
  const anchors = MAPS[name];
  const x = Math.min(Math.max(v, 0), 1) * (anchors.length - 1);
  const i = Math.min(Math.floor(x), anchors.length - 2);
  const f = x - i;
  return anchors[i].map((c, k) => Math.round(c + (anchors[i + 1][k] - c) * f));
}

// Runs shown together get hues that stay apart for colour-blind readers too: blue and orange first
// (the agent mode's hue of index i is fract(0.381966 i), so run k is drawn as the index giving its hue).
const RUN_HUES = [0.58, 0.08, 0.83, 0.33, 0.15, 0.5, 0.95, 0.7];
const runIndex = (k) => (RUN_HUES[k % RUN_HUES.length] + Math.floor(k / RUN_HUES.length) * 0.03) / 0.381966;

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function agentColor(index, count) {
  // Hues spread by the golden angle, so that neighbouring indices differ.
  const hue = (index * 137.508) % 360;
  const s = 0.65, l = 0.5;
  const a = s * Math.min(l, 1 - l);
  const f = (n) => {
    const k = (n + hue / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

export function unpack(meta, buffer) {
  const arrays = {};
  for (const [name, [type, offset, length]] of Object.entries(meta.layout)) {
    arrays[name] = new TYPES[type](buffer, offset, length);
  }
  return arrays;
}

function decodeBase64(text) {
  if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text).buffer;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

// The scene a page carries: its meta as JSON and its blob as base64, in two script elements.
export function sceneFromDocument(doc) {
  const meta = JSON.parse(doc.getElementById("vosim-meta").textContent);
  const blob = decodeBase64(doc.getElementById("vosim-data").textContent.trim());
  return { meta, arrays: unpack(meta, blob) };
}

// ---------------------------------------------------------------- the frames

class Frames {
  constructor(meta, arrays) {
    this.meta = meta;
    this.n = meta.agents;
    this.dims = meta.dims;
    this.times = meta.times.slice();
    this.positionList = [];
    this.speedList = [];
    const n = this.n, d = this.dims;
    for (let f = 0; f < meta.frames; f++) {
      this.positionList.push(arrays.positions.subarray(f * n * d, (f + 1) * n * d));
      this.speedList.push(arrays.speeds.subarray(f * n, (f + 1) * n));
    }
    // Every frame in one array each (a recorded run): what the GPU can hold once instead of frame by frame.
    this.allPositions = meta.live ? null : arrays.positions;
    this.allSpeeds = meta.live ? null : arrays.speeds;
    this.ids = arrays.ids;
    this.radius = arrays.radius;
    this.goals = arrays.goals;
    this.hasGoal = arrays.has_goal;
    this.group = arrays.group || null; // which run each agent belongs to (several runs in one picture)
    this.arrive = Int32Array.from(arrays.arrive);
    this.leave = Int32Array.from(arrays.leave);
    this.version = 0; // bumped when arrive/leave change (live runs)
  }
  get count() { return this.times.length; }
  positions(f) { return this.positionList[f]; }
  speeds(f) { return this.speedList[f]; }
  present(i, f) { return f < this.leave[i]; }
  // A live run's new frame: positions, speeds, flags (bit 0 active, bit 1 arrived).
  append(time, positions, speeds, flags) {
    // A frame no newer than the last is one this view has (sent again for a view that came late).
    if (this.times.length && !(time > this.times[this.times.length - 1])) return false;
    const f = this.times.length;
    this.times.push(time);
    this.positionList.push(positions);
    this.speedList.push(speeds);
    for (let i = 0; i < this.n; i++) {
      if (!(flags[i] & 1) && this.leave[i] === NEVER) { this.leave[i] = f; this.version++; }
      if ((flags[i] & 2) && this.arrive[i] === NEVER) { this.arrive[i] = f; this.version++; }
    }
  }
}

// Agents per square metre around each agent: counts on a grid of cells, summed over the 3 x 3 block
// around each cell (two sequential passes over the grid), then read once per agent.
const grids = new Map();
function densities(frames, f, bounds, out) {
  const n = frames.n, d = frames.dims, p = frames.positions(f);
  const lo = bounds[0], hi = bounds[1];
  let cell = 0.75;
  let nx = Math.ceil((hi[0] - lo[0]) / cell) + 1, ny = Math.ceil((hi[1] - lo[1]) / cell) + 1;
  while (nx * ny > 4e6) { cell *= 2; nx = Math.ceil(nx / 2) + 1; ny = Math.ceil(ny / 2) + 1; }
  if (!grids.has(frames)) grids.set(frames, { counts: new Int32Array(nx * ny), rows: new Int32Array(nx * ny), cellOf: new Int32Array(n) });
  const { counts, rows, cellOf } = grids.get(frames);
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    if (!frames.present(i, f)) { cellOf[i] = -1; continue; }
    const cx = Math.min(nx - 1, Math.max(0, Math.floor((p[i * d] - lo[0]) / cell)));
    const cy = Math.min(ny - 1, Math.max(0, Math.floor((p[i * d + 1] - lo[1]) / cell)));
    const c = cy * nx + cx;
    cellOf[i] = c;
    counts[c]++;
  }
  for (let y = 0; y < ny; y++) {
    const row = y * nx;
    for (let x = 0; x < nx; x++) {
      rows[row + x] = counts[row + x] + (x > 0 ? counts[row + x - 1] : 0) + (x < nx - 1 ? counts[row + x + 1] : 0);
    }
  }
  for (let c = 0; c < nx * ny; c++) {
    counts[c] = rows[c] + (c >= nx ? rows[c - nx] : 0) + (c < nx * (ny - 1) ? rows[c + nx] : 0);
  }
  const scale = 1 / (9 * cell * cell) / DENSITY_TOP;
  for (let i = 0; i < n; i++) out[i] = cellOf[i] < 0 ? 0 : counts[cellOf[i]] * scale;
  return out;
}

// ---------------------------------------------------------------- WebGL

const POINT_VERTEX = `
attribute vec3 a_pos; attribute float a_radius; attribute float a_value;
attribute float a_leave; attribute float a_arrive; attribute float a_index;
uniform mat4 u_matrix; uniform float u_frame; uniform float u_pixels; uniform int u_mode; uniform int u_perspective;
uniform vec3 u_map0; uniform vec3 u_map1; uniform vec3 u_map2; uniform vec3 u_map3; uniform vec3 u_map4;
varying vec3 v_color; varying float v_size;
vec3 ramp(float v) {
  float x = clamp(v, 0.0, 1.0) * 4.0;
  if (x < 1.0) return mix(u_map0, u_map1, x);
  if (x < 2.0) return mix(u_map1, u_map2, x - 1.0);
  if (x < 3.0) return mix(u_map2, u_map3, x - 2.0);
  return mix(u_map3, u_map4, x - 3.0);
}
vec3 hue(float h) {
  vec3 k = clamp(abs(mod(h * 6.0 + vec3(0.0, 4.0, 2.0), 6.0) - 3.0) - 1.0, 0.0, 1.0);
  return mix(vec3(0.5), k, 0.65) * 0.9 + 0.05;
}
void main() {
  if (u_frame >= a_leave) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); gl_PointSize = 0.0; return; }
  gl_Position = u_matrix * vec4(a_pos, 1.0);
  float size = 2.0 * a_radius * u_pixels;
  if (u_perspective == 1) size /= gl_Position.w;
  v_size = max(size, 3.0);
  gl_PointSize = v_size;
  if (u_mode == 1) v_color = u_frame >= a_arrive ? u_map1 : u_map0;
  else if (u_mode == 3) v_color = hue(fract(a_index * 0.381966));
  else v_color = ramp(a_value);
}`;
const POINT_FRAGMENT = `
precision mediump float;
varying vec3 v_color; varying float v_size;
void main() {
  vec2 d = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(d, d);
  if (r2 > 1.0) discard;
  float rim = v_size > 7.0 && r2 > (1.0 - 3.0 / v_size) * (1.0 - 3.0 / v_size) ? 0.35 : 1.0;
  gl_FragColor = vec4(v_color * rim, 1.0);
}`;
const LINE_VERTEX = `
attribute vec3 a_pos; uniform mat4 u_matrix;
void main() { gl_Position = u_matrix * vec4(a_pos, 1.0); }`;
const LINE_FRAGMENT = `
precision mediump float; uniform vec3 u_color;
void main() { gl_FragColor = vec4(u_color, 1.0); }`;

function program(gl, vertex, fragment) {
  const compile = (type, text) => {
    const shader = gl.createShader(type);
    gl.shaderSource(shader, text);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(shader));
    return shader;
  };
  const p = gl.createProgram();
  gl.attachShader(p, compile(gl.VERTEX_SHADER, vertex));
  gl.attachShader(p, compile(gl.FRAGMENT_SHADER, fragment));
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p));
  return p;
}

class GLAgents {
  constructor(canvas, frames) {
    const gl = canvas.getContext("webgl", { antialias: false, premultipliedAlpha: true, preserveDrawingBuffer: true });
    if (!gl) throw new Error("no WebGL");
    this.gl = gl;
    this.frames = frames;
    this.points = program(gl, POINT_VERTEX, POINT_FRAGMENT);
    this.lines = program(gl, LINE_VERTEX, LINE_FRAGMENT);
    const n = frames.n;
    this.buffer = {};
    for (const name of ["pos", "radius", "value", "density", "leave", "arrive", "index", "group", "lines"]) {
      this.buffer[name] = gl.createBuffer();
    }
    this.upload("radius", frames.radius, gl.STATIC_DRAW);
    this.upload("index", Float32Array.from({ length: n }, (_, i) => i), gl.STATIC_DRAW);
    // Several runs in one picture: each agent's run, coloured as the agent mode colours an index.
    if (frames.group) this.upload("group", Float32Array.from(frames.group, runIndex), gl.STATIC_DRAW);
    this.version = -1;
    this.lineCount = 0;
    // A recorded run of up to RESIDENT_BYTES is uploaded once; a frame is then an offset into it.
    this.resident = frames.allPositions !== null && frames.allPositions.byteLength <= RESIDENT_BYTES;
    if (this.resident) {
      this.upload("pos", frames.allPositions, gl.STATIC_DRAW);
      this.upload("value", frames.allSpeeds, gl.STATIC_DRAW);
    }
  }
  upload(name, data, usage) {
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer[name]);
    gl.bufferData(gl.ARRAY_BUFFER, data, usage);
  }
  attribute(prog, name, buffer, size, type, normalized, offset = 0) {
    const gl = this.gl;
    const at = gl.getAttribLocation(prog, name);
    if (at < 0) return;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer[buffer]);
    gl.enableVertexAttribArray(at);
    gl.vertexAttribPointer(at, size, type, normalized, 0, offset);
  }
  setLines(vertices) {
    this.upload("lines", new Float32Array(vertices), this.gl.STATIC_DRAW);
    this.lineCount = vertices.length / 3;
  }
  // Draw frame f: upload its positions and colour values, then one draw call for every agent.
  draw(f, matrix, pixels, perspective, mode, density, lineColor) {
    const gl = this.gl, fr = this.frames, n = fr.n;
    gl.viewport(0, 0, gl.canvas.width, gl.canvas.height);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
    if (this.lineCount) {
      gl.useProgram(this.lines);
      for (let k = 0; k < 8; k++) gl.disableVertexAttribArray(k);
      this.attribute(this.lines, "a_pos", "lines", 3, gl.FLOAT, false);
      gl.uniformMatrix4fv(gl.getUniformLocation(this.lines, "u_matrix"), false, matrix);
      gl.uniform3fv(gl.getUniformLocation(this.lines, "u_color"), lineColor);
      gl.drawArrays(gl.LINES, 0, this.lineCount);
    }
    if (!n) return;
    if (this.version !== fr.version) {
      this.upload("leave", Float32Array.from(fr.leave), gl.DYNAMIC_DRAW);
      this.upload("arrive", Float32Array.from(fr.arrive), gl.DYNAMIC_DRAW);
      this.version = fr.version;
    }
    const p = this.points;
    gl.useProgram(p);
    for (let k = 0; k < 8; k++) gl.disableVertexAttribArray(k);
    if (!this.resident) this.upload("pos", fr.positions(f), gl.STREAM_DRAW);
    const at = this.resident ? f * n : 0;
    this.attribute(p, "a_pos", "pos", fr.dims, gl.FLOAT, false, at * fr.dims * 4); // (a plane's z reads as 0)
    if (mode === "density") {
      this.upload("density", density, gl.STREAM_DRAW);
      this.attribute(p, "a_value", "density", 1, gl.FLOAT, false);
    } else {
      if (!this.resident) this.upload("value", fr.speeds(f), gl.STREAM_DRAW);
      this.attribute(p, "a_value", "value", 1, gl.UNSIGNED_BYTE, true, at);
    }
    this.attribute(p, "a_radius", "radius", 1, gl.FLOAT, false);
    this.attribute(p, "a_leave", "leave", 1, gl.FLOAT, false);
    this.attribute(p, "a_arrive", "arrive", 1, gl.FLOAT, false);
    this.attribute(p, "a_index", mode === "method" ? "group" : "index", 1, gl.FLOAT, false);
    const u = (name) => gl.getUniformLocation(p, name);
    gl.uniformMatrix4fv(u("u_matrix"), false, matrix);
    gl.uniform1f(u("u_frame"), f);
    gl.uniform1f(u("u_pixels"), pixels);
    gl.uniform1i(u("u_mode"), MODES.indexOf(mode === "method" ? "agent" : mode));
    gl.uniform1i(u("u_perspective"), perspective ? 1 : 0);
    const anchors = mode === "arrival" ? [...MAPS.arrival, ...MAPS.arrival, MAPS.arrival[0]] : MAPS[mode === "density" ? "density" : "speed"];
    anchors.forEach((c, k) => gl.uniform3f(u(`u_map${k}`), c[0] / 255, c[1] / 255, c[2] / 255));
    gl.drawArrays(gl.POINTS, 0, n);
  }
}

// ---------------------------------------------------------------- matrices (column-major)

function multiply(a, b) {
  const out = new Float32Array(16);
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) {
    let s = 0;
    for (let k = 0; k < 4; k++) s += a[k * 4 + j] * b[i * 4 + k];
    out[i * 4 + j] = s;
  }
  return out;
}

function perspective(fovy, aspect, near, far) {
  const f = 1 / Math.tan(fovy / 2);
  return new Float32Array([f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) / (near - far), -1, 0, 0, 2 * far * near / (near - far), 0]);
}

function lookAt(eye, target, up) {
  const sub = (a, b) => a.map((v, i) => v - b[i]);
  const norm = (a) => { const l = Math.hypot(...a) || 1; return a.map((v) => v / l); };
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const z = norm(sub(eye, target)), x = norm(cross(up, z)), y = cross(z, x);
  return new Float32Array([x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -dot(x, eye), -dot(y, eye), -dot(z, eye), 1]);
}

function apply(m, p) {
  const v = [0, 1, 2, 3].map((j) => m[j] * p[0] + m[4 + j] * p[1] + m[8 + j] * p[2] + m[12 + j]);
  return v;
}

// ---------------------------------------------------------------- the viewer

function element(tag, attributes, parent, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

const STYLE = `
.vosim-viewer { font: 13px system-ui, sans-serif; color: #222; max-width: 100%; }
.vosim-viewer .vv-stage { position: relative; background: ${BACKGROUND}; border: 1px solid #ccc; touch-action: none; }
.vosim-viewer canvas { position: absolute; left: 0; top: 0; }
.vosim-viewer .vv-controls { display: flex; gap: 8px; align-items: center; margin: 6px 0; flex-wrap: wrap; }
.vosim-viewer .vv-controls input[type=range] { flex: 1; min-width: 160px; }
.vosim-viewer .vv-note { color: #555; font-size: 12px; margin: 2px 0; }
.vosim-viewer .vv-legend { display: inline-block; width: 120px; height: 10px; vertical-align: middle; margin: 0 4px; }
.vosim-viewer button { min-width: 60px; }`;

export function createViewer(root, scene, options = {}) {
  const meta = scene.meta;
  const frames = new Frames(meta, scene.arrays);
  const dims = meta.dims;
  const width = options.width || Math.max(320, Math.min(root.clientWidth || 800, 1200));
  const height = options.height || Math.round(width * 0.62);
  const dpr = window.devicePixelRatio || 1;
  if (!document.getElementById("vosim-viewer-style")) element("style", { id: "vosim-viewer-style" }, document.head, STYLE);
  const box = element("div", { class: "vosim-viewer" }, root);
  element("div", { "data-role": "title", style: "font-weight:600" }, box, meta.title);
  const stage = element("div", { class: "vv-stage", style: `width:${width}px;height:${height}px` }, box);
  const canvas = (cls) => {
    const c = element("canvas", { class: cls, width: Math.round(width * dpr), height: Math.round(height * dpr) }, stage);
    c.style.width = `${width}px`;
    c.style.height = `${height}px`;
    return c;
  };
  const under = canvas("vv-under"), agentsCanvas = canvas("vv-agents"), over = canvas("vv-over");
  const controls = element("div", { class: "vv-controls" }, box);
  const play = element("button", { "data-role": "play", type: "button" }, controls, "Play");
  const scrub = element("input", { "data-role": "scrub", type: "range", min: 0, max: Math.max(frames.count - 1, 0), value: 0, step: 1 }, controls);
  const speedSelect = element("select", { "data-role": "speed", title: "playback speed" }, controls);
  for (const s of SPEEDS) element("option", { value: s }, speedSelect, `${s}x`);
  speedSelect.value = "1";
  const colorSelect = element("select", { "data-role": "color", title: "colour agents by" }, controls);
  const modes = meta.groups ? [...MODES, "method"] : MODES;
  for (const m of modes) element("option", { value: m }, colorSelect, `colour: ${m}`);
  colorSelect.value = modes.includes(meta.color_by) ? meta.color_by : "speed";
  const followLabel = element("label", {}, controls);
  const follow = element("input", { "data-role": "follow", type: "checkbox" }, followLabel);
  followLabel.append(" follow selected");
  const clock = element("span", { "data-role": "time" }, controls);
  const legend = element("div", { class: "vv-note", "data-role": "legend" }, box);
  const picked = element("div", { class: "vv-note", "data-role": "agent" }, box, "Click an agent to see its id, speed, goal and neighbours.");
  const info = element("div", { class: "vv-note", "data-role": "info" }, box);

  // ---- renderer
  let gl = null, renderer = "2d";
  if (options.renderer !== "2d") {
    try { gl = new GLAgents(agentsCanvas, frames); renderer = "webgl"; } catch (error) { gl = null; }
  }
  const ctxAgents = gl ? null : agentsCanvas.getContext("2d");
  if (dims === 3 && !gl) picked.textContent = "3D runs need WebGL, which this browser does not offer.";

  // ---- view state
  const state = {
    frame: 0, playing: false, speed: 1, colorBy: colorSelect.value, selected: -1, follow: false,
    renderer, workMs: 0, fps: 0, drawn: 0, clock: meta.times[0] || 0,
    uploads: gl ? (gl.resident ? "once" : "per frame") : "none",
  };
  const [lo, hi] = meta.bounds;
  const view = { cx: (lo[0] + hi[0]) / 2, cy: (lo[1] + hi[1]) / 2, scale: 1 };
  view.scale = Math.min(width / Math.max(hi[0] - lo[0], 1e-6), height / Math.max(hi[1] - lo[1], 1e-6));
  const span = Math.hypot(...lo.map((v, i) => hi[i] - v));
  const orbit = { yaw: -0.6, pitch: 0.5, distance: 1.1 * span, target: lo.map((v, i) => (v + hi[i]) / 2) };
  const density = new Float32Array(frames.n);
  const work = [];

  function matrix2d() {
    // world -> clip: x' = (x - cx) * scale * 2 / width
    const sx = view.scale * 2 / width, sy = view.scale * 2 / height;
    return new Float32Array([sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, 1, 0, -view.cx * sx, -view.cy * sy, 0, 1]);
  }
  function matrix3d() {
    const t = orbit.target, c = Math.cos(orbit.pitch);
    const eye = [t[0] + orbit.distance * c * Math.cos(orbit.yaw), t[1] + orbit.distance * c * Math.sin(orbit.yaw), t[2] + orbit.distance * Math.sin(orbit.pitch)];
    return multiply(perspective(0.8, width / height, orbit.distance / 100, orbit.distance * 10), lookAt(eye, t, [0, 0, 1]));
  }
  // CSS pixels in the stage of a world point (the tests and picking use it).
  function worldToScreen(x, y, z = 0) {
    if (dims === 2) return [width / 2 + (x - view.cx) * view.scale, height / 2 - (y - view.cy) * view.scale];
    const v = apply(matrix3d(), [x, y, z]);
    return [(v[0] / v[3] + 1) / 2 * width, (1 - v[1] / v[3]) / 2 * height];
  }
  function screenToWorld(px, py) {
    return [view.cx + (px - width / 2) / view.scale, view.cy - (py - height / 2) / view.scale];
  }

  // ---- geometry of the plane, on the canvas under the agents
  function path2d(ctx, points, close) {
    ctx.beginPath();
    points.forEach(([x, y], k) => { const [sx, sy] = worldToScreen(x, y); k ? ctx.lineTo(sx, sy) : ctx.moveTo(sx, sy); });
    if (close) ctx.closePath();
  }
  function drawGeometry() {
    const ctx = under.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = BACKGROUND;
    ctx.fillRect(0, 0, width, height);
    if (dims === 3) return;
    for (const zone of meta.zones) {
      path2d(ctx, zone.points, true);
      ctx.fillStyle = "rgba(86,180,233,0.18)"; ctx.fill();
      ctx.strokeStyle = ZONE_COLOR; ctx.setLineDash([4, 3]); ctx.lineWidth = 1; ctx.stroke(); ctx.setLineDash([]);
    }
    for (const sink of meta.sinks) {
      path2d(ctx, sink.points, sink.kind === "area");
      if (sink.kind === "area") { ctx.fillStyle = "rgba(0,158,115,0.2)"; ctx.fill(); }
      ctx.strokeStyle = SINK_COLOR; ctx.lineWidth = 2.5; ctx.stroke();
    }
    for (const o of meta.obstacles) {
      if (o.kind === "boundary") {
        ctx.beginPath();
        ctx.rect(0, 0, width, height);
        o.points.forEach(([x, y], k) => { const [sx, sy] = worldToScreen(x, y); k ? ctx.lineTo(sx, sy) : ctx.moveTo(sx, sy); });
        ctx.closePath();
        ctx.fillStyle = OUTSIDE_FILL; ctx.fill("evenodd");
        path2d(ctx, o.points, true);
        ctx.strokeStyle = OBSTACLE_EDGE; ctx.lineWidth = 1.5; ctx.stroke();
      } else if (o.kind === "polygon") {
        path2d(ctx, o.points, true);
        ctx.fillStyle = OBSTACLE_FILL; ctx.fill();
        ctx.strokeStyle = OBSTACLE_EDGE; ctx.lineWidth = 1; ctx.stroke();
      } else {
        path2d(ctx, o.points, false);
        ctx.strokeStyle = OBSTACLE_EDGE; ctx.lineWidth = Math.max(2, 0.1 * view.scale); ctx.lineCap = "round"; ctx.stroke();
      }
    }
    // Queues and waiting areas: each place an open circle; a queue's places joined front to back, the front filled.
    for (const stage of meta.stages || []) {
      const r = Math.max(3, 0.2 * view.scale);
      ctx.strokeStyle = STAGE_COLOR; ctx.fillStyle = STAGE_COLOR; ctx.lineWidth = 1.5;
      if (stage.kind === "queue" && stage.points.length > 1) {
        path2d(ctx, stage.points, false);
        ctx.setLineDash([2, 3]); ctx.stroke(); ctx.setLineDash([]);
      }
      stage.points.forEach(([x, y], k) => {
        const [sx, sy] = worldToScreen(x, y);
        ctx.beginPath(); ctx.arc(sx, sy, r, 0, 2 * Math.PI);
        if (stage.kind === "queue" && k === 0) ctx.fill(); else { ctx.fillStyle = BACKGROUND; ctx.fill(); ctx.fillStyle = STAGE_COLOR; }
        ctx.stroke();
      });
    }
    // Named places over the obstacles: dashed outlines (a polygon) or lines, each with its name.
    // A polygon's name goes inside its top-left corner, a line's above its upper end.
    ctx.font = "12px sans-serif";
    for (const place of meta.places || []) {
      const closed = place.points.length > 2;
      path2d(ctx, place.points, closed);
      if (closed) { ctx.fillStyle = "rgba(204,121,167,0.12)"; ctx.fill(); }
      ctx.strokeStyle = PLACE_COLOR; ctx.lineWidth = 2; ctx.setLineDash([6, 4]); ctx.stroke(); ctx.setLineDash([]);
      const xs = place.points.map((p) => p[0]), ys = place.points.map((p) => p[1]);
      const top = Math.max(...ys);
      const [lx, ly] = closed ? worldToScreen(Math.min(...xs), top) : worldToScreen(place.points[ys.indexOf(top)][0], top);
      ctx.fillStyle = PLACE_COLOR; ctx.textBaseline = closed ? "top" : "bottom";
      ctx.fillText(place.name, lx + 4, closed ? ly + 3 : ly - 3);
    }
    // Goals as small hollow rings (only where few enough to read).
    if (frames.n <= 5000) {
      ctx.strokeStyle = GOAL_COLOR; ctx.lineWidth = 1;
      for (let i = 0; i < frames.n; i++) {
        if (!frames.hasGoal[i]) continue;
        const [sx, sy] = worldToScreen(frames.goals[2 * i], frames.goals[2 * i + 1]);
        ctx.beginPath(); ctx.arc(sx, sy, Math.max(2, 0.25 * frames.radius[i] * view.scale), 0, 2 * Math.PI); ctx.stroke();
      }
    }
  }

  // The 3D scene's lines: the bounds' box, boxes' edges, three great circles per sphere.
  function lines3d() {
    const v = [];
    const edge = (a, b) => v.push(...a, ...b);
    const boxEdges = (c) => { for (let i = 0; i < 8; i++) for (let b = 0; b < 3; b++) { const j = i | (1 << b); if (j !== i) edge(c[i], c[j]); } };
    const bl = meta.bounds[0], bh = meta.bounds[1];
    boxEdges(([0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i & 4 ? bh[0] : bl[0], i & 2 ? bh[1] : bl[1], i & 1 ? bh[2] : bl[2]])));
    for (const s of meta.shapes) {
      if (s.kind === "box") boxEdges(s.corners);
      else if (s.kind === "faces") for (const f of s.faces) f.forEach((p, k) => edge(p, f[(k + 1) % f.length]));
      else if (s.kind === "plane") for (const [a, b] of s.lines) edge(a, b);
      else {
        const [cx, cy, cz] = s.center, r = s.radius, steps = 32;
        for (let plane = 0; plane < 3; plane++) {
          for (let k = 0; k < steps; k++) {
            const at = (a) => { const c = r * Math.cos(a), d = r * Math.sin(a); return plane === 0 ? [cx + c, cy + d, cz] : plane === 1 ? [cx + c, cy, cz + d] : [cx, cy + c, cz + d]; };
            edge(at(2 * Math.PI * k / steps), at(2 * Math.PI * (k + 1) / steps));
          }
        }
      }
    }
    return v;
  }
  if (gl && dims === 3) gl.setLines(lines3d());

  // ---- agents
  function drawAgents2d(f) {
    const ctx = ctxAgents;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const p = frames.positions(f), s = frames.speeds(f), n = frames.n;
    for (let i = 0; i < n; i++) {
      if (!frames.present(i, f)) continue;
      const c = colorOf(i, f, s);
      const [sx, sy] = worldToScreen(p[2 * i], p[2 * i + 1]);
      const r = Math.max(1.5, frames.radius[i] * view.scale);
      ctx.fillStyle = `rgb(${c[0]},${c[1]},${c[2]})`;
      ctx.beginPath(); ctx.arc(sx, sy, r, 0, 2 * Math.PI); ctx.fill();
      if (r > 3.5) { ctx.strokeStyle = "rgba(0,0,0,0.6)"; ctx.lineWidth = 1; ctx.stroke(); }
    }
  }
  function colorOf(i, f, speeds) {
    if (state.colorBy === "speed") return mapColor("speed", speeds[i] / 255);
    if (state.colorBy === "density") return mapColor("density", density[i]);
    if (state.colorBy === "arrival") return f >= frames.arrive[i] ? MAPS.arrival[1] : MAPS.arrival[0];
    if (state.colorBy === "method") return agentColor(runIndex(frames.group[i]), meta.groups.length);
    return agentColor(i, frames.n);
  }
  function drawOverlay(f) {
    const ctx = over.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const i = state.selected;
    if (i < 0 || !frames.present(i, f)) return;
    const p = frames.positions(f), d = dims;
    const [sx, sy] = worldToScreen(p[i * d], p[i * d + 1], d === 3 ? p[i * d + 2] : 0);
    ctx.strokeStyle = SELECTED_COLOR; ctx.lineWidth = 2.5;
    ctx.beginPath(); ctx.arc(sx, sy, Math.max(8, (dims === 2 ? frames.radius[i] * view.scale : 0) + 5), 0, 2 * Math.PI); ctx.stroke();
    if (frames.hasGoal[i]) {
      const [gx, gy] = worldToScreen(frames.goals[i * d], frames.goals[i * d + 1], d === 3 ? frames.goals[i * d + 2] : 0);
      ctx.setLineDash([5, 4]); ctx.lineWidth = 1.2;
      ctx.beginPath(); ctx.moveTo(sx, sy); ctx.lineTo(gx, gy); ctx.stroke(); ctx.setLineDash([]);
    }
  }

  // ---- one frame
  let geometryDirty = true;
  function render() {
    const f = state.frame;
    if (state.follow && state.selected >= 0 && frames.present(state.selected, f)) {
      const p = frames.positions(f), i = state.selected;
      if (dims === 2) { view.cx = p[2 * i]; view.cy = p[2 * i + 1]; geometryDirty = true; }
      else orbit.target = [p[3 * i], p[3 * i + 1], p[3 * i + 2]];
    }
    if (geometryDirty) { drawGeometry(); geometryDirty = false; }
    const started = performance.now();
    if (state.colorBy === "density") densities(frames, f, meta.bounds, density);
    if (gl) {
      const m = dims === 2 ? matrix2d() : matrix3d();
      const pixels = dims === 2 ? view.scale * dpr : dpr * height / 2 / Math.tan(0.4);
      gl.draw(f, m, pixels, dims === 3, state.colorBy, density, [0.45, 0.45, 0.45]);
    } else if (dims === 2) drawAgents2d(f);
    const spent = performance.now() - started;
    state.lastWorkMs = spent;
    work.push(spent); if (work.length > 60) work.shift();
    state.workMs = work.reduce((a, b) => a + b, 0) / work.length;
    state.drawn++;
    drawOverlay(f);
    scrub.max = Math.max(frames.count - 1, 0);
    scrub.value = f;
    const t = frames.times[f] || 0;
    clock.textContent = `t = ${t.toFixed(2)} s, frame ${f + 1} of ${frames.count}`;
    if (state.selected >= 0) describe(state.selected);
  }

  // ---- picking
  function describe(i) {
    const f = state.frame, p = frames.positions(f), d = dims;
    const here = frames.present(i, f);
    const speed = frames.speeds(f)[i] / 255 * meta.speed_scale;
    const at = Array.from(p.subarray(i * d, i * d + d), (v) => v.toFixed(2)).join(", ");
    const goal = frames.hasGoal[i] ? Array.from(frames.goals.subarray(i * d, i * d + d), (v) => v.toFixed(2)).join(", ") : "none";
    // The five nearest agents in this frame.
    const near = [];
    for (let j = 0; j < frames.n; j++) {
      if (j === i || !frames.present(j, f)) continue;
      let dist = 0;
      for (let k = 0; k < d; k++) dist += (p[j * d + k] - p[i * d + k]) ** 2;
      near.push([dist, j]);
      if (near.length > 64) { near.sort((a, b) => a[0] - b[0]); near.length = 5; }
    }
    near.sort((a, b) => a[0] - b[0]);
    const neighbours = near.slice(0, 5).map(([dist, j]) => `${frames.ids[j]} (${Math.sqrt(dist).toFixed(2)} m)`).join(", ");
    picked.textContent = here
      ? `agent ${frames.ids[i]}: at (${at}), speed ${speed.toFixed(2)} m/s, goal (${goal})` +
        `${f >= frames.arrive[i] ? ", arrived" : ""}; nearest: ${neighbours || "none"}`
      : `agent ${frames.ids[i]}: not in the scene at this frame`;
  }
  function pick(px, py) {
    const f = state.frame, p = frames.positions(f), d = dims;
    let best = -1, bestDistance = Infinity;
    for (let i = 0; i < frames.n; i++) {
      if (!frames.present(i, f)) continue;
      const [sx, sy] = worldToScreen(p[i * d], p[i * d + 1], d === 3 ? p[i * d + 2] : 0);
      const reach = Math.max(6, dims === 2 ? frames.radius[i] * view.scale : 6);
      const dist = Math.hypot(sx - px, sy - py);
      if (dist <= reach && dist < bestDistance) { best = i; bestDistance = dist; }
    }
    state.selected = best;
    if (best < 0) picked.textContent = "No agent there.";
    render();
  }

  // ---- playback
  let last = null, rafCount = 0, rafStart = 0;
  function frameAt(t) {
    const times = frames.times;
    let lo2 = 0, hi2 = times.length - 1;
    while (lo2 < hi2) { const mid = (lo2 + hi2 + 1) >> 1; if (times[mid] <= t) lo2 = mid; else hi2 = mid - 1; }
    return lo2;
  }
  function tick(now) {
    if (!state.playing) { last = null; return; }
    if (last !== null) {
      state.clock += (now - last) / 1000 * state.speed;
      const end = frames.times[frames.count - 1];
      if (state.clock >= end && !meta.live) { state.clock = end; }
      state.frame = frameAt(state.clock);
      if (state.frame === frames.count - 1 && !meta.live) setPlaying(false);
    }
    last = now;
    rafCount++;
    if (now - rafStart >= 1000) { state.fps = rafCount * 1000 / (now - rafStart); rafCount = 0; rafStart = now; }
    render();
    if (state.playing) requestAnimationFrame(tick);
  }
  function setPlaying(on) {
    if (on && state.frame >= frames.count - 1 && !meta.live) { state.frame = 0; state.clock = frames.times[0]; }
    state.playing = on;
    play.textContent = on ? "Pause" : "Play";
    if (on) { last = null; rafCount = 0; rafStart = performance.now(); requestAnimationFrame(tick); }
  }
  function seek(f) {
    state.frame = Math.max(0, Math.min(frames.count - 1, f | 0));
    state.clock = frames.times[state.frame];
    render();
  }

  play.addEventListener("click", () => setPlaying(!state.playing));
  scrub.addEventListener("input", () => seek(Number(scrub.value)));
  speedSelect.addEventListener("change", () => { state.speed = Number(speedSelect.value); });
  colorSelect.addEventListener("change", () => { state.colorBy = colorSelect.value; showLegend(); render(); });
  follow.addEventListener("change", () => { state.follow = follow.checked; render(); });

  // ---- zoom, pan, orbit, click
  let drag = null;
  over.addEventListener("pointerdown", (e) => { drag = { x: e.offsetX, y: e.offsetY, moved: false }; over.setPointerCapture(e.pointerId); });
  over.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const dx = e.offsetX - drag.x, dy = e.offsetY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
    if (!drag.moved) return;
    if (dims === 2) { view.cx -= dx / view.scale; view.cy += dy / view.scale; geometryDirty = true; }
    else { orbit.yaw -= dx * 0.01; orbit.pitch = Math.max(-1.5, Math.min(1.5, orbit.pitch + dy * 0.01)); }
    drag.x = e.offsetX; drag.y = e.offsetY;
    render();
  });
  over.addEventListener("pointerup", (e) => { if (drag && !drag.moved) pick(e.offsetX, e.offsetY); drag = null; });
  over.addEventListener("wheel", (e) => {
    e.preventDefault();
    const factor = Math.exp(-e.deltaY * 0.0015);
    if (dims === 2) {
      const [wx, wy] = screenToWorld(e.offsetX, e.offsetY);
      view.scale *= factor;
      // Keep the point under the cursor where it is.
      view.cx = wx - (e.offsetX - width / 2) / view.scale;
      view.cy = wy + (e.offsetY - height / 2) / view.scale;
      geometryDirty = true;
    } else orbit.distance /= factor;
    render();
  }, { passive: false });

  function showLegend() {
    const mode = state.colorBy;
    legend.replaceChildren();
    if (mode === "agent") { legend.textContent = "colour: agent index (golden-angle hues)"; return; }
    if (mode === "method") {
      legend.innerHTML = "colour: " + meta.groups.map((name, k) =>
        `<span style="color:rgb(${agentColor(runIndex(k), meta.groups.length)})">&#9679; ${escapeHtml(name)}</span>`).join(" ");
      return;
    }
    if (mode === "arrival") {
      legend.innerHTML = `colour: <span style="color:rgb(${MAPS.arrival[0]})">&#9679; not yet arrived</span> <span style="color:rgb(${MAPS.arrival[1]})">&#9679; arrived</span>`;
      return;
    }
    const anchors = MAPS[mode];
    const gradient = anchors.map((c, k) => `rgb(${c}) ${(100 * k / (anchors.length - 1)).toFixed(0)}%`).join(",");
    const top = mode === "speed" ? `${meta.speed_scale.toFixed(2)} m/s` : `${DENSITY_TOP} agents/m²`;
    legend.append(`colour: ${mode} 0`);
    element("span", { class: "vv-legend", style: `background:linear-gradient(to right,${gradient})` }, legend);
    legend.append(top);
  }
  showLegend();
  const thinning = [];
  thinning.push(meta.frame_every > 1 ? `every ${meta.frame_every}th frame (${meta.frames} of ${meta.total_frames})` : `every frame (${meta.frames})`);
  thinning.push(meta.agent_every > 1 ? `every ${meta.agent_every}th agent (${meta.agents} of ${meta.total_agents})` : `every agent (${meta.agents})`);
  info.textContent = `${options.pageSize ? `page ${options.pageSize}; ` : ""}showing ${thinning.join(" and ")}; ` +
    `drawn with ${renderer === "webgl" ? "WebGL" : "a 2D canvas"}; drag to ${dims === 2 ? "pan" : "orbit"}, wheel to zoom, click an agent.`;

  render();
  const api = {
    state, frames, meta,
    worldToScreen, seek, setPlaying, render,
    select(i) { state.selected = i; render(); },
    setColor(mode) { colorSelect.value = mode; state.colorBy = mode; showLegend(); render(); },
    append(time, positions, speeds, flags) {
      const atEnd = state.frame >= frames.count - 1;
      frames.append(time, positions, speeds, flags);
      if (atEnd) seek(frames.count - 1); else render();
    },
    destroy() { state.playing = false; box.remove(); },
  };
  (window.vosimViewers = window.vosimViewers || []).push(api);
  return api;
}

// ---------------------------------------------------------------- the notebook widget (anywidget)

function bufferOf(view) {
  // A DataView (or ArrayBuffer) from the kernel, as an ArrayBuffer holding exactly its bytes.
  if (view instanceof ArrayBuffer) return view;
  return view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);
}

function renderWidget({ model, el }) {
  let viewer = null;
  const build = () => {
    if (viewer) viewer.destroy();
    const meta = model.get("meta");
    if (!meta || !meta.layout) return;
    viewer = createViewer(el, { meta, arrays: unpack(meta, bufferOf(model.get("data"))) }, { pageSize: null });
  };
  build();
  // Frames sent before this view was drawn (a run started in the cell after the one that shows the
  // widget, with "Run all") reached no view: the kernel sends its latest again when asked.
  if (typeof model.send === "function") model.send({ type: "ready" });
  model.on("change:data", build);
  model.on("msg:custom", (message, buffers) => {
    if (!viewer || message.type !== "frame") return;
    const [positions, speeds, flags] = buffers.map(bufferOf);
    viewer.append(message.time, new Float32Array(positions), new Uint8Array(speeds), new Uint8Array(flags));
  });
  return () => { if (viewer) viewer.destroy(); };
}

export default { render: renderWidget };
