const path = require('path');

// SQLite in .tmp/ (DATABASE_FILENAME, relative to this project, overrides it).
module.exports = ({ env }) => ({
  connection: {
    client: 'sqlite',
    connection: {
      filename: path.resolve(__dirname, '..', env('DATABASE_FILENAME', '.tmp/data.db')),
    },
    useNullAsDefault: true,
  },
});
