/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`examples/fan-in/test/fan-in.test.ts > TAP > the whole result, as a snapshot (\`tap --snapshot\` writes it again) > must match snapshot 1`] = `
Object {
  "overlays": Object {
    "fan-in": Object {
      "legend": Object {
        "1-2 importers": "#c6dbef",
        "10-29 importers": "#2171b5",
        "3-9 importers": "#6baed6",
        "30 or more": "#08306b",
        "not imported": "#f7fbff",
      },
      "styles": Object {
        "dir:.": Object {
          "color": "#6baed6",
          "value": 4,
        },
        "dir:src": Object {
          "color": "#6baed6",
          "value": 4,
        },
        "dir:src/lib": Object {
          "color": "#f7fbff",
          "value": 0,
        },
        "dir:test": Object {
          "color": "#f7fbff",
          "value": 0,
        },
        "file:src/a.ts": Object {
          "color": "#c6dbef",
          "value": 1,
        },
        "file:src/b.ts": Object {
          "color": "#f7fbff",
          "value": 0,
        },
        "file:src/lib/c.ts": Object {
          "color": "#f7fbff",
          "value": 0,
        },
        "file:src/util.ts": Object {
          "color": "#6baed6",
          "value": 4,
        },
        "file:test/util.test.ts": Object {
          "color": "#f7fbff",
          "value": 0,
        },
      },
    },
    "hubs": Object {
      "legend": Object {},
      "styles": Object {
        "file:src/util.ts": Object {
          "badge": "4",
          "value": 4,
        },
      },
    },
  },
  "summary": Object {
    "excludedImports": 0,
    "files": 5,
    "hubs": 1,
  },
}
`
