// paperbase inspect: toggles per view, and a click on a box shows its stored row. No framework, no network.
"use strict";
(function () {
  const rows = JSON.parse(document.getElementById("rows").textContent);
  const panel = document.getElementById("panel");

  document.querySelectorAll(".toggles input[data-view]").forEach(function (box) {
    box.addEventListener("change", function () {
      document.body.classList.toggle("hide-" + box.dataset.view, !box.checked);
    });
  });

  // The table's HTML comes from a PDF: rebuild it from text, spans and <sup>/<sub> only, never insert it as markup.
  function copyText(from, to) {
    from.childNodes.forEach(function (node) {
      if (node.nodeType === Node.TEXT_NODE) {
        to.appendChild(document.createTextNode(node.textContent));
      } else if (node.nodeType === Node.ELEMENT_NODE) {
        const tag = node.tagName.toLowerCase();
        if (tag === "sup" || tag === "sub") {
          const el = document.createElement(tag);
          el.textContent = node.textContent;
          to.appendChild(el);
        } else {
          copyText(node, to);
        }
      }
    });
  }

  function safeTable(html) {
    const source = new DOMParser().parseFromString(html || "", "text/html");
    const table = document.createElement("table");
    source.querySelectorAll("tr").forEach(function (tr) {
      const row = table.insertRow();
      tr.querySelectorAll("td,th").forEach(function (cell) {
        const out = document.createElement(cell.tagName.toLowerCase());
        copyText(cell, out);
        ["rowspan", "colspan"].forEach(function (a) {
          const n = parseInt(cell.getAttribute(a) || "", 10);
          if (n > 1 && n < 100) out.setAttribute(a, String(n));
        });
        row.appendChild(out);
      });
    });
    return table;
  }

  // a table printed as a picture is stored as <table data-raster="true"></table> (schemas/content_marks.py)
  function isRaster(html) {
    return /^\s*<table\b[^>]*\bdata-raster="true"/.test(html || "");
  }

  Object.keys(rows.tables || {}).forEach(function (id) {
    if (isRaster(rows.tables[id].table_content)) {
      document.querySelectorAll('.box[data-id="' + id + '"]').forEach(function (el) {
        el.classList.add("raster");
        el.title = "tables: printed as an image (no cells extracted)";
      });
    }
  });

  function show(view, id) {
    const row = (rows[view] || {})[id];
    panel.replaceChildren();
    const title = document.createElement("h2");
    title.textContent = view + " " + id;
    panel.appendChild(title);
    const list = document.createElement("dl");
    Object.keys(row || {}).forEach(function (key) {
      const value = row[key];
      const dt = document.createElement("dt");
      dt.textContent = key;
      const dd = document.createElement("dd");
      if (key === "table_content" && value && isRaster(value)) {
        dd.className = "raster";
        dd.textContent = "printed as an image: no cells extracted (flag data-raster=\"true\"; OCR fills them)";
      } else if (key === "table_content" && value) {
        dd.appendChild(safeTable(value));
      } else if (key === "equation_content" && value) {
        const pre = document.createElement("pre");
        pre.textContent = "$$" + value + "$$";
        dd.appendChild(pre);
      } else {
        dd.textContent = value === null ? "NULL" : Array.isArray(value) ? JSON.stringify(value) : String(value);
      }
      list.append(dt, dd);
    });
    panel.appendChild(list);
  }

  document.querySelectorAll(".box").forEach(function (el) {
    el.addEventListener("click", function () {
      document.querySelectorAll(".box.selected").forEach(function (s) { s.classList.remove("selected"); });
      document.querySelectorAll('.box[data-id="' + el.dataset.id + '"]').forEach(function (s) { s.classList.add("selected"); });
      show(el.dataset.view, el.dataset.id);
    });
  });
})();
