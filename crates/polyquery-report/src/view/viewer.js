// polyquery's plan viewer: plain WebGL 1, no library. Draws every .pq-view of the page from
// its JSON (links' triangles once, obstacles and per-frame link poses per problem), Lambert
// shading with a head light, orbit (drag) and zoom (wheel), a play button, a frame slider and
// a problem picker. Sets data-status="drawn" and data-pixels (non-background pixels of the
// first frame) on the view once it has drawn, or data-status="no-webgl".
(function () {
  'use strict';
  var BG = [0.969, 0.969, 0.961];
  var LINK = [0.93, 0.55, 0.18];
  var OBSTACLE = [0.45, 0.58, 0.75];
  function mul(a, b) {
    var o = new Float32Array(16);
    for (var c = 0; c < 4; c++)
      for (var r = 0; r < 4; r++) {
        var s = 0;
        for (var k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
        o[c * 4 + r] = s;
      }
    return o;
  }
  function perspective(fovy, aspect, near, far) {
    var f = 1 / Math.tan(fovy / 2), nf = 1 / (near - far);
    return new Float32Array([f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) * nf, -1, 0, 0, 2 * far * near * nf, 0]);
  }
  function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
  function cross(a, b) { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
  function unit(a) { var n = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / n, a[1] / n, a[2] / n]; }
  function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
  function lookAt(eye, at, up) {
    var z = unit(sub(eye, at)), x = unit(cross(up, z)), y = cross(z, x);
    return new Float32Array([x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -dot(x, eye), -dot(y, eye), -dot(z, eye), 1]);
  }
  // Link k's pose at frame f (x y z qx qy qz qw per link) as a column-major 4 × 4 matrix.
  function pose(f, k) {
    var o = k * 7, x = f[o + 3], y = f[o + 4], z = f[o + 5], w = f[o + 6];
    var n = Math.hypot(x, y, z, w) || 1;
    x /= n; y /= n; z /= n; w /= n;
    return new Float32Array([
      1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0,
      2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0,
      2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0,
      f[o], f[o + 1], f[o + 2], 1]);
  }
  var IDENTITY = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  var VS = 'attribute vec3 p;attribute vec3 n;uniform mat4 model;uniform mat4 viewProj;varying vec3 vn;' +
    'void main(){vn=(model*vec4(n,0.0)).xyz;gl_Position=viewProj*model*vec4(p,1.0);}';
  var FS = 'precision mediump float;uniform vec3 color;uniform vec3 light;varying vec3 vn;' +
    'void main(){float l=abs(dot(normalize(vn),light));gl_FragColor=vec4(color*(0.35+0.65*l),1.0);}';
  function shader(gl, type, src) {
    var s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
    return s;
  }
  // A mesh {p, t} as flat-shaded triangles in one buffer: x y z nx ny nz per vertex.
  function upload(gl, m) {
    var t = m.t, p = m.p, data = new Float32Array(t.length * 6), lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (var i = 0; i < t.length; i += 3) {
      var v = [0, 1, 2].map(function (j) { var q = 3 * t[i + j]; return [p[q], p[q + 1], p[q + 2]]; });
      var n = unit(cross(sub(v[1], v[0]), sub(v[2], v[0])));
      for (var j = 0; j < 3; j++) {
        data.set(v[j], (i + j) * 6);
        data.set(n, (i + j) * 6 + 3);
      }
    }
    for (var q = 0; q < p.length; q += 3)
      for (var a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], p[q + a]); hi[a] = Math.max(hi[a], p[q + a]); }
    var b = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, b);
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
    return { buffer: b, count: t.length, lo: lo, hi: hi };
  }
  function setup(view) {
    var data = JSON.parse(view.querySelector('.pq-data').textContent);
    var canvas = view.querySelector('canvas');
    var slider = view.querySelector('.pq-slider'), play = view.querySelector('.pq-play');
    var picker = view.querySelector('.pq-picker'), label = view.querySelector('.pq-frame');
    var caption = view.querySelector('.pq-caption');
    var gl = canvas.getContext('webgl', { preserveDrawingBuffer: true, antialias: true });
    if (!gl) {
      view.setAttribute('data-status', 'no-webgl');
      caption.textContent = 'This browser has no WebGL: the view cannot be drawn.';
      return;
    }
    var prog = gl.createProgram();
    gl.attachShader(prog, shader(gl, gl.VERTEX_SHADER, VS));
    gl.attachShader(prog, shader(gl, gl.FRAGMENT_SHADER, FS));
    gl.linkProgram(prog);
    gl.useProgram(prog);
    var loc = {
      p: gl.getAttribLocation(prog, 'p'), n: gl.getAttribLocation(prog, 'n'),
      model: gl.getUniformLocation(prog, 'model'), viewProj: gl.getUniformLocation(prog, 'viewProj'),
      color: gl.getUniformLocation(prog, 'color'), light: gl.getUniformLocation(prog, 'light')
    };
    gl.enableVertexAttribArray(loc.p);
    gl.enableVertexAttribArray(loc.n);
    gl.enable(gl.DEPTH_TEST);
    var links = data.links.map(function (m) { return upload(gl, m); });
    var state = { problem: 0, frame: 0, playing: false, azimuth: -0.9, elevation: 0.45, distance: 1, target: [0, 0, 0], obstacles: null };
    function choose(k) {
      var pr = data.problems[k];
      if (state.obstacles) gl.deleteBuffer(state.obstacles.buffer);
      state.problem = k;
      state.obstacles = pr ? upload(gl, pr.obstacles) : null;
      state.frame = 0;
      var frames = pr ? pr.frames.length : 0;
      slider.max = String(Math.max(0, frames - 1));
      slider.value = '0';
      caption.textContent = pr ? pr.caption : 'no problem to show';
      // Frame the robot at its first pose and the obstacles.
      var lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      function grow(m, f, k) {
        for (var c = 0; c < 8; c++) {
          var v = [c & 1 ? m.hi[0] : m.lo[0], c & 2 ? m.hi[1] : m.lo[1], c & 4 ? m.hi[2] : m.lo[2]];
          if (f) { var m4 = pose(f, k); v = [0, 1, 2].map(function (r) { return m4[r] * v[0] + m4[4 + r] * v[1] + m4[8 + r] * v[2] + m4[12 + r]; }); }
          for (var a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], v[a]); hi[a] = Math.max(hi[a], v[a]); }
        }
      }
      if (state.obstacles && state.obstacles.count) grow(state.obstacles, null, 0);
      if (pr && pr.frames.length) links.forEach(function (m, i) { if (m.count) grow(m, pr.frames[0], i); });
      if (lo[0] <= hi[0]) {
        state.target = [0, 1, 2].map(function (a) { return (lo[a] + hi[a]) / 2; });
        state.distance = 1.6 * Math.max(0.1, Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]));
      }
      draw();
    }
    function draw() {
      var w = canvas.width, h = canvas.height;
      gl.viewport(0, 0, w, h);
      gl.clearColor(BG[0], BG[1], BG[2], 1);
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
      var ce = Math.cos(state.elevation), t = state.target, d = state.distance;
      var eye = [t[0] + d * ce * Math.cos(state.azimuth), t[1] + d * ce * Math.sin(state.azimuth), t[2] + d * Math.sin(state.elevation)];
      gl.uniformMatrix4fv(loc.viewProj, false, mul(perspective(0.8, w / h, d / 100, d * 10), lookAt(eye, t, [0, 0, 1])));
      gl.uniform3fv(loc.light, unit(sub(eye, t)));
      function mesh(m, model, color) {
        if (!m || !m.count) return;
        gl.bindBuffer(gl.ARRAY_BUFFER, m.buffer);
        gl.vertexAttribPointer(loc.p, 3, gl.FLOAT, false, 24, 0);
        gl.vertexAttribPointer(loc.n, 3, gl.FLOAT, false, 24, 12);
        gl.uniformMatrix4fv(loc.model, false, model);
        gl.uniform3fv(loc.color, color);
        gl.drawArrays(gl.TRIANGLES, 0, m.count);
      }
      mesh(state.obstacles, IDENTITY, OBSTACLE);
      var pr = data.problems[state.problem];
      var f = pr && pr.frames[state.frame];
      if (f) links.forEach(function (m, k) { mesh(m, pose(f, k), LINK); });
      if (pr) {
        var w0 = pr.waypoints.filter(function (x) { return x <= state.frame; }).length;
        label.textContent = 'frame ' + (state.frame + 1) + ' / ' + pr.frames.length + ', after waypoint ' + w0 + ' of ' + pr.waypoints.length;
      }
    }
    function tick() {
      if (!state.playing) return;
      var pr = data.problems[state.problem];
      if (!pr || state.frame + 1 >= pr.frames.length) { state.playing = false; play.textContent = 'Play'; return; }
      state.frame += 1;
      slider.value = String(state.frame);
      draw();
      requestAnimationFrame(tick);
    }
    play.addEventListener('click', function () {
      var pr = data.problems[state.problem];
      state.playing = !state.playing;
      if (state.playing && pr && state.frame + 1 >= pr.frames.length) state.frame = 0;
      play.textContent = state.playing ? 'Pause' : 'Play';
      requestAnimationFrame(tick);
    });
    slider.addEventListener('input', function () { state.frame = Number(slider.value); draw(); });
    if (picker) {
      data.problems.forEach(function (pr, k) { var o = document.createElement('option'); o.value = String(k); o.textContent = pr.name; picker.appendChild(o); });
      picker.addEventListener('change', function () { state.playing = false; play.textContent = 'Play'; choose(Number(picker.value)); });
    }
    var drag = null;
    canvas.addEventListener('pointerdown', function (e) { drag = [e.clientX, e.clientY]; canvas.setPointerCapture(e.pointerId); });
    canvas.addEventListener('pointerup', function () { drag = null; });
    canvas.addEventListener('pointermove', function (e) {
      if (!drag) return;
      state.azimuth -= (e.clientX - drag[0]) * 0.01;
      state.elevation = Math.max(-1.5, Math.min(1.5, state.elevation + (e.clientY - drag[1]) * 0.01));
      drag = [e.clientX, e.clientY];
      draw();
    });
    canvas.addEventListener('wheel', function (e) { e.preventDefault(); state.distance *= Math.exp(e.deltaY * 0.001); draw(); }, { passive: false });
    choose(0);
    var px = new Uint8Array(canvas.width * canvas.height * 4), drawn = 0;
    gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, px);
    for (var i = 0; i < px.length; i += 4)
      if (Math.abs(px[i] - 247) > 3 || Math.abs(px[i + 1] - 247) > 3 || Math.abs(px[i + 2] - 245) > 3) drawn++;
    view.setAttribute('data-pixels', String(drawn));
    view.setAttribute('data-status', 'drawn');
  }
  var views = document.querySelectorAll('.pq-view');
  for (var v = 0; v < views.length; v++) {
    try { setup(views[v]); } catch (e) { views[v].setAttribute('data-status', 'error: ' + e.message); }
  }
})();
