const fs = require('fs');
const path = require('path');

// The local upload provider refuses to start without its folder (gitignored).
module.exports = ({ env }) => {
  fs.mkdirSync(path.resolve(path.join(__dirname, '..'), env('PUBLIC_DIR', './public'), 'uploads'), { recursive: true });
  return {
    'users-permissions': {
      config: {
        jwtSecret: env('JWT_SECRET'),
      },
    },
  };
};
