const fs = require('fs');
const path = require('path');

// The local upload provider refuses to start without its folder (gitignored).
fs.mkdirSync(path.join(__dirname, '..', 'public', 'uploads'), { recursive: true });

module.exports = ({ env }) => ({
  'users-permissions': {
    config: {
      jwtSecret: env('JWT_SECRET'),
    },
  },
});
